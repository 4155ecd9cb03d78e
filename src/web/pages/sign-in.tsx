import { Alert, Layout } from "../components/layout.js";

/** The browser's time zone, filled in by the page's script: the person's times are written in it. */
const BrowserZone = () => <input type="hidden" name="timeZone" value="" data-browser-zone />;

export function SignInPage(props: {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
  notice?: string;
  upstreamName?: string;
}) {
  return (
    <Layout title="Sign in" narrow>
      <h1>Sign in to notula</h1>
      <Alert error={props.error} ok={props.notice} id="sign-in-error" />
      <form method="post" action="/sign-in" class="panel">
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <BrowserZone />
        <label for="email">Email</label>
        {/* After a refusal the cursor is where the person goes on: the password, the email kept. */}
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={props.email ?? ""}
          autofocus={!props.email}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          autofocus={Boolean(props.email)}
          aria-describedby={props.error ? "sign-in-error" : undefined}
        />
        <div class="actions">
          <button type="submit">Sign in</button>
        </div>
      </form>
      {props.upstreamName ? (
        <p>
          <a id="upstream" href={`/sign-in/upstream?next=${encodeURIComponent(props.next)}`}>
            Continue with {props.upstreamName}
          </a>
        </p>
      ) : null}
      <p>
        <a href="/forgot-password">Forgot your password?</a>
      </p>
      <p class="muted small">No account yet? Ask an admin of your workspace for an invite link.</p>
    </Layout>
  );
}

/** "Forgot password?": an email address, then the same answer for any address. */
export function ForgotPasswordPage(props: { csrf: string; available: boolean; sent?: boolean; error?: string }) {
  return (
    <Layout title="Forgot password" narrow>
      <h1>Forgot your password?</h1>
      <Alert
        error={props.error}
        ok={
          props.sent
            ? "If an account has this address, a link to set a new password is on its way; it works once, for 24 hours."
            : undefined
        }
      />
      {props.available ? (
        <form method="post" action="/forgot-password" class="panel">
          <input type="hidden" name="csrf" value={props.csrf} />
          <label for="email">Your account's email</label>
          <input id="email" name="email" type="email" autocomplete="username" required autofocus />
          <div class="actions">
            <button type="submit">Email me a link</button>
          </div>
        </form>
      ) : (
        <p class="panel">
          This server does not send email. Ask an admin of your workspace for a password reset link: they make one in
          Settings → Members.
        </p>
      )}
      <p>
        <a href="/sign-in">Back to sign in</a>
      </p>
    </Layout>
  );
}

export function PasswordLinkPage(props: {
  token: string;
  csrf: string;
  email: string;
  purpose: "setup" | "reset";
  error?: string;
}) {
  const title = props.purpose === "setup" ? "Set up your account" : "Choose a new password";
  return (
    <Layout title={title} narrow noindex>
      <h1>{title}</h1>
      <p class="muted">For {props.email}.</p>
      <Alert error={props.error} />
      <form method="post" action={`/account/password/${props.token}`} class="panel">
        <input type="hidden" name="csrf" value={props.csrf} />
        <BrowserZone />
        <label for="password">New password (at least 8 characters)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" minlength={8} required />
        <label for="confirm">The same password again</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength={8} required />
        <div class="actions">
          <button type="submit">Save and sign in</button>
        </div>
      </form>
    </Layout>
  );
}

export function MessagePage(props: {
  title: string;
  message: string;
  viewer?: import("../context.js").Viewer | null;
  link?: { href: string; label: string };
}) {
  return (
    <Layout title={props.title} viewer={props.viewer} narrow={!props.viewer}>
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      {props.link ? (
        <p>
          <a href={props.link.href}>{props.link.label}</a>
        </p>
      ) : null}
    </Layout>
  );
}
