import type { ScopeName } from "../../core/principal.js";
import { formatInZone, zoneChoices } from "../../core/time-zone.js";
import { Alert, Csrf, Layout, PostButton, Secret, Table } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { describeUserAgent, formatDate } from "../format.js";

const SCOPE_HELP: Record<ScopeName, string> = {
  notes: "read and write notes, recordings, webhooks and the knowledge base",
  folders: "manage folders and tags",
  users: "manage members and invites",
  templates: "manage meeting templates and AI configurations",
};

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
}

export function KeysPage(props: {
  viewer: Viewer;
  keys: KeyView[];
  allowed: ScopeName[];
  created?: { key: string; name: string };
  error?: string;
  notice?: string;
}) {
  const zone = props.viewer.timeZone;
  const { viewer } = props;
  return (
    <Layout title="API keys" viewer={viewer} section="keys">
      <h1>API keys</h1>
      <p class="muted">
        Keys let the notula CLI, scripts and CI jobs act as you in {viewer.workspace.name}. On your own computer,{" "}
        <code>notula login --browser</code> makes one for you; elsewhere use one with{" "}
        <code>notula login --with-token</code> or <code>NOTULA_API_KEY</code>.
      </p>
      <Alert error={props.error} ok={props.notice} />
      {props.created ? (
        <div class="panel" role="status">
          <Secret id="new-key" value={props.created.key} label={`New key “${props.created.name}”.`} />
        </div>
      ) : null}
      <form method="post" action="/settings/keys" class="panel">
        <h2>Create a key</h2>
        <Csrf viewer={viewer} />
        <label for="key-name">Name</label>
        <input
          id="key-name"
          name="name"
          type="text"
          required
          maxlength={100}
          placeholder="e.g. laptop CLI, nightly export"
        />
        <fieldset>
          <legend>Scopes</legend>
          {props.allowed.map((s) => (
            <label>
              <input type="checkbox" name="scopes" value={s} checked={s === "notes"} /> <strong>{s}</strong>{" "}
              <span class="muted small">{SCOPE_HELP[s]}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit">Create key</button>
      </form>
      <h2>Your keys</h2>
      {props.keys.length === 0 ? (
        <p class="muted">No keys yet.</p>
      ) : (
        <Table columns={["Name", "Scopes", "Created", "Last used"]} actions>
          {props.keys.map((k) => (
            <tr>
              <td>
                {k.name}
                <div class="small muted">{k.prefix}…</div>
              </td>
              <td>{k.scopes.join(", ")}</td>
              <td>{formatDate(k.createdAt, zone)}</td>
              <td>{k.lastUsedAt ? formatDate(k.lastUsedAt, zone) : "never"}</td>
              <td>
                {k.revoked ? (
                  <span class="muted">revoked</span>
                ) : (
                  <PostButton
                    viewer={viewer}
                    action={`/settings/keys/${encodeURIComponent(k.id)}/revoke`}
                    label="Revoke"
                    ariaLabel={`Revoke ${k.name}`}
                    danger
                    confirm={`Revoke the key ${k.name}? Whatever uses it stops working.`}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Layout>
  );
}

export function AccountPage(props: {
  viewer: Viewer;
  sessions: { handle: string; userAgent: string; createdAt: number; lastSeenAt: number; current: boolean }[];
  /** The mail this person asked for, and whether the server sends mail at all. */
  mail: { noteReady: boolean; configured: boolean };
  error?: string;
  notice?: string;
}) {
  const zone = props.viewer.timeZone;
  const { viewer } = props;
  return (
    <Layout title="Account" viewer={viewer} section="account">
      <h1>Account</h1>
      <Alert error={props.error} ok={props.notice} />
      <form method="post" action="/settings/account/name" class="panel">
        <h2>Name</h2>
        <Csrf viewer={viewer} />
        <label for="name">Your name</label>
        <input id="name" name="name" type="text" required maxlength={200} value={viewer.name} autocomplete="name" />
        <p class="small muted">Signed in as {viewer.email}.</p>
        <button type="submit">Save name</button>
      </form>
      <form method="post" action="/settings/account/time-zone" class="panel">
        <h2>Time zone</h2>
        <Csrf viewer={viewer} />
        <label for="time-zone">Times are shown in</label>
        <select id="time-zone" name="timeZone" aria-describedby="time-zone-hint">
          {zoneChoices().map((z) => (
            <option value={z} selected={z === viewer.timeZone}>
              {z.replace(/_/g, " ")}
            </option>
          ))}
        </select>
        <p class="small muted" id="time-zone-hint">
          Taken from your browser when you first signed in. It is now {formatInZone(Date.now(), viewer.timeZone)} there.
        </p>
        <button type="submit">Save time zone</button>
      </form>
      <form method="post" action="/settings/account/password" class="panel">
        <h2>Password</h2>
        <Csrf viewer={viewer} />
        <label for="current">Current password</label>
        <input id="current" name="current" type="password" autocomplete="current-password" />
        <label for="new-password">New password (at least 8 characters)</label>
        <input id="new-password" name="password" type="password" autocomplete="new-password" minlength={8} required />
        <label for="confirm">New password again</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength={8} required />
        <button type="submit">Change password</button>
      </form>
      <form method="post" action="/settings/account/notifications" class="panel">
        <h2>Mail</h2>
        <Csrf viewer={viewer} />
        <label class="check">
          <input
            type="checkbox"
            name="noteReady"
            value="1"
            checked={props.mail.noteReady}
            disabled={!props.mail.configured}
          />{" "}
          Email me when my note is ready
        </label>
        {props.mail.configured ? (
          <p class="small muted">
            Sent to {viewer.email} when a recording or upload of yours has its transcript and summary.
          </p>
        ) : (
          <p class="small muted">Email is not set up for this workspace: an admin sets it up in Settings → Email.</p>
        )}
        <button type="submit" disabled={!props.mail.configured}>
          Save
        </button>
      </form>
      <section class="panel">
        <h2>Sessions</h2>
        <Table columns={["Browser", "Signed in", "Last active"]} actions>
          {props.sessions.map((s) => (
            <tr>
              <td title={s.userAgent}>{describeUserAgent(s.userAgent)}</td>
              <td>{formatDate(new Date(s.createdAt).toISOString(), zone)}</td>
              <td>{formatDate(new Date(s.lastSeenAt).toISOString(), zone)}</td>
              <td>
                {s.current ? (
                  <span class="muted">this one</span>
                ) : (
                  <PostButton
                    viewer={viewer}
                    action={`/settings/account/sessions/${s.handle}/revoke`}
                    label="Sign out"
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
        <form method="post" action="/settings/account/sessions/revoke-others" class="actions">
          <Csrf viewer={viewer} />
          <button type="submit" class="secondary">
            Sign out other sessions
          </button>
        </form>
      </section>
    </Layout>
  );
}
