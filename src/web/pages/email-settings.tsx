// Settings → Email (admins): the workspace's own SMTP server and sender, a test mail to
// oneself, and going back to the server's. The password field is never filled in.
import type { MailConfigDto } from "../../shared/schemas/mail-config.js";
import { Alert, Csrf, Layout, PostButton } from "../components/layout.js";
import type { Viewer } from "../context.js";

function status(mail: MailConfigDto) {
  if (mail.source === "workspace" && mail.smtp)
    return (
      <p>
        This workspace's mail goes out through its own server,{" "}
        <strong>
          {mail.smtp.host}:{mail.smtp.port}
        </strong>
        , as <strong>{mail.effectiveFrom}</strong>.
      </p>
    );
  if (mail.source === "server")
    return (
      <p>
        This workspace's mail goes out through the server's SMTP server, as <strong>{mail.effectiveFrom}</strong>. Set
        up your own below to send through yours.
      </p>
    );
  return (
    <p class="alert" role="status">
      Email is not set up: invites show their link to pass on by hand, a forgotten password is for an admin, and no
      recap or note-ready mail is sent. Set up an SMTP server below.
    </p>
  );
}

export function EmailSettingsPage(props: {
  viewer: Viewer;
  mail: MailConfigDto;
  to: string;
  notice?: string;
  error?: string;
}) {
  const { viewer, mail } = props;
  const smtp = mail.smtp;
  return (
    <Layout title="Email" viewer={viewer} section="email">
      <h1>Email</h1>
      <Alert error={props.error} ok={props.notice} />
      {status(mail)}
      <form method="post" action="/settings/email" class="panel">
        <h2>{smtp ? "This workspace's SMTP server" : "Use your own SMTP server"}</h2>
        <Csrf viewer={viewer} />
        <div class="row">
          <div class="grow">
            <label for="smtp-host">Server</label>
            <input
              id="smtp-host"
              name="host"
              type="text"
              required
              maxlength={253}
              autocomplete="off"
              placeholder="smtp.example.com"
              value={smtp?.host ?? ""}
            />
          </div>
          <div>
            <label for="smtp-port">Port</label>
            <input
              id="smtp-port"
              name="port"
              type="number"
              required
              min={1}
              max={65535}
              value={String(smtp?.port ?? 587)}
            />
          </div>
        </div>
        <label for="smtp-security">Security</label>
        <select id="smtp-security" name="security">
          <option value="starttls" selected={smtp?.security !== "tls"}>
            STARTTLS (usually port 587)
          </option>
          <option value="tls" selected={smtp?.security === "tls"}>
            TLS from the start (usually port 465)
          </option>
        </select>
        <div class="row">
          <div class="grow">
            <label for="smtp-username">User name</label>
            <input
              id="smtp-username"
              name="username"
              type="text"
              autocomplete="off"
              maxlength={500}
              value={smtp?.username ?? ""}
            />
          </div>
          <div class="grow">
            <label for="smtp-password">Password</label>
            <input
              id="smtp-password"
              name="password"
              type="password"
              autocomplete="new-password"
              maxlength={1000}
              aria-describedby="smtp-password-note"
              placeholder={smtp?.hasPassword ? "(unchanged)" : ""}
            />
          </div>
        </div>
        <p id="smtp-password-note" class="small muted">
          Stored encrypted and never shown. Left empty, the stored one is kept while the server and user name stay the
          same.
        </p>
        <label for="smtp-from">Sender</label>
        <input
          id="smtp-from"
          name="from"
          type="text"
          maxlength={320}
          placeholder={mail.effectiveFrom || "Acme notes <notes@acme.example>"}
          value={mail.from ?? ""}
          aria-describedby="smtp-from-note"
        />
        <p id="smtp-from-note" class="small muted">
          An address, or <code>Name &lt;address&gt;</code>; empty for the server's.
        </p>
        <button type="submit">Save</button>
      </form>
      {mail.source !== "none" ? (
        <section>
          <h2>Test</h2>
          <p class="muted">Sends a mail to you ({props.to}) now, and says what the SMTP server answered.</p>
          <PostButton viewer={viewer} action="/settings/email/test" label="Send a test mail" />
        </section>
      ) : null}
      {smtp ? (
        <section>
          <h2>Remove</h2>
          <p class="muted">
            Forgets this server and its password; the workspace's mail then goes out through the server's, if it has
            one.
          </p>
          <PostButton
            viewer={viewer}
            action="/settings/email/remove"
            label="Remove this server"
            danger
            confirm="Remove this SMTP server and its password?"
          />
        </section>
      ) : null}
    </Layout>
  );
}
