import { Alert, Csrf, Layout, PostButton, Secret, Table } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatDate } from "../format.js";

export function FoldersPage(props: { viewer: Viewer; folders: { id: string; name: string; memberCount: number; createdAt: string }[]; error?: string }) {
  const { viewer } = props;
  return (
    <Layout title="Folders" viewer={viewer} section="folders">
      <h1>Folders</h1>
      <Alert error={props.error} />
      <form method="post" action="/settings/folders" class="panel">
        <h2>New folder</h2>
        <Csrf viewer={viewer} />
        <label for="folder-name">Name</label>
        <input id="folder-name" name="name" type="text" required maxlength={200} />
        <fieldset>
          <legend>Who sees it</legend>
          <label>
            <input type="checkbox" name="private" value="1" /> Private: only its members (you, to begin with)
          </label>
        </fieldset>
        <button type="submit">Create folder</button>
      </form>
      <Table columns={["Name", "Members", "Created"]} actions>
            {props.folders.map((f) => (
              <tr>
                <td>
                  <form method="post" action={`/settings/folders/${encodeURIComponent(f.id)}`} class="row">
                    <Csrf viewer={viewer} />
                    <input type="text" name="name" value={f.name} required maxlength={200} aria-label={`Name of ${f.name}`} />
                    <button type="submit" class="secondary fit" aria-label={`Rename ${f.name}`}>
                      Rename
                    </button>
                  </form>
                </td>
                <td>{f.memberCount}</td>
                <td>{formatDate(f.createdAt)}</td>
                <td>
                  <PostButton viewer={viewer} action={`/settings/folders/${encodeURIComponent(f.id)}/delete`} label="Delete" ariaLabel={`Delete ${f.name} (its notes stay)`} />
                </td>
              </tr>
            ))}
      </Table>
      <p class="small muted">Deleting a folder keeps its notes; they are only unfiled.</p>
    </Layout>
  );
}

export function WebhooksPage(props: {
  viewer: Viewer;
  webhooks: { id: string; hookUrl: string; disabled: boolean; consecutiveFailures: number; createdAt: string }[];
  deliveries: { eventId: string; type: string; hookUrl: string; status: string; attempts: number; lastStatusCode: number | null; lastError: string | null; createdAt: string }[];
  secret?: { url: string; value: string };
  error?: string;
}) {
  const { viewer } = props;
  return (
    <Layout title="Webhooks" viewer={viewer} section="webhooks">
      <h1>Webhooks</h1>
      <p class="muted">Every new meeting and every finished one is POSTed to these URLs, signed (Standard Webhooks) with the registration's secret.</p>
      <Alert error={props.error} />
      {props.secret ? (
        <div class="panel" role="status">
          <Secret id="webhook-secret" value={props.secret.value} label={`Signing secret for ${props.secret.url}.`} />
        </div>
      ) : null}
      <form method="post" action="/settings/webhooks" class="panel">
        <h2>Register a URL</h2>
        <Csrf viewer={viewer} />
        <label for="hook-url">URL</label>
        <input id="hook-url" name="hookUrl" type="url" required maxlength={2000} placeholder="https://hooks.example.com/notula" />
        <button type="submit">Register</button>
      </form>
      <h2>Registrations</h2>
      {props.webhooks.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <Table columns={["URL", "State", "Created"]} actions>
              {props.webhooks.map((w) => (
                <tr>
                  <td>{w.hookUrl}</td>
                  <td>{w.disabled ? `disabled after ${w.consecutiveFailures} failed events` : "active"}</td>
                  <td>{formatDate(w.createdAt)}</td>
                  <td>
                    <PostButton viewer={viewer} action="/settings/webhooks/remove" hidden={{ hookUrl: w.hookUrl }} label="Remove" ariaLabel={`Remove ${w.hookUrl}`} />
                  </td>
                </tr>
              ))}
        </Table>
      )}
      <h2>Delivery log</h2>
      {props.deliveries.length === 0 ? (
        <p class="muted">Nothing sent yet.</p>
      ) : (
        <Table columns={["Event", "URL", "Status", "Attempts", "Last answer", "At"]}>
              {props.deliveries.map((d) => (
                <tr>
                  <td>{d.type}</td>
                  <td>{d.hookUrl}</td>
                  <td>{d.status}</td>
                  <td>{d.attempts}</td>
                  <td>{d.lastError ?? (d.lastStatusCode === null ? "—" : String(d.lastStatusCode))}</td>
                  <td>{formatDate(d.createdAt)}</td>
                </tr>
              ))}
        </Table>
      )}
    </Layout>
  );
}
