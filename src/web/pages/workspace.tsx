import { Alert, Csrf, Layout, PostButton, Secret, Table } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatDate } from "../format.js";

export function FoldersPage(props: {
  viewer: Viewer;
  folders: {
    id: string;
    name: string;
    memberCount: number;
    isPrivate: boolean;
    createdAt: string;
    /** Whether this viewer may change the folder itself (the access policy's word): else its name alone. */
    mayManage: boolean;
  }[];
  error?: string;
  notice?: string;
}) {
  const zone = props.viewer.timeZone;
  const { viewer } = props;
  return (
    <Layout title="Folders" viewer={viewer} section="folders">
      <h1>Folders</h1>
      <Alert error={props.error} ok={props.notice} />
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
      <Table columns={["Name", "Who sees it", "Members", "Created"]} actions>
        {props.folders.map((f) => (
          <tr>
            <td>
              {f.mayManage ? (
                <form method="post" action={`/settings/folders/${encodeURIComponent(f.id)}`} class="row">
                  <Csrf viewer={viewer} />
                  <input
                    type="text"
                    name="name"
                    value={f.name}
                    required
                    maxlength={200}
                    aria-label={`Name of ${f.name}`}
                  />
                  <button type="submit" class="secondary fit" aria-label={`Rename ${f.name}`}>
                    Rename
                  </button>
                </form>
              ) : (
                f.name
              )}
            </td>
            <td>
              {f.mayManage ? (
                <form method="post" action={`/settings/folders/${encodeURIComponent(f.id)}/privacy`} class="row">
                  <Csrf viewer={viewer} />
                  <select name="private" aria-label={`Who sees ${f.name}`}>
                    <option value="0" selected={!f.isPrivate}>
                      the workspace
                    </option>
                    <option value="1" selected={f.isPrivate}>
                      its members only
                    </option>
                  </select>
                  <button type="submit" class="secondary fit" aria-label={`Save who sees ${f.name}`}>
                    Save
                  </button>
                </form>
              ) : f.isPrivate ? (
                "its members only"
              ) : (
                "the workspace"
              )}
            </td>
            <td>
              <a
                href={`/settings/folders/${encodeURIComponent(f.id)}`}
                aria-label={`${f.memberCount} ${f.memberCount === 1 ? "member" : "members"} of ${f.name}`}
              >
                {f.memberCount} {f.memberCount === 1 ? "member" : "members"}
              </a>
            </td>
            <td>{formatDate(f.createdAt, zone)}</td>
            <td>
              {f.mayManage ? (
                <PostButton
                  viewer={viewer}
                  action={`/settings/folders/${encodeURIComponent(f.id)}/delete`}
                  label="Delete"
                  ariaLabel={`Delete ${f.name} (its notes stay)`}
                  danger
                  confirm={`Delete the folder ${f.name}? Its notes stay, outside any folder.`}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <p class="small muted">
        A folder's owner and admins change and delete it; everyone who sees it files notes in it. Deleting a folder
        keeps its notes; they are only unfiled.
      </p>
    </Layout>
  );
}

export function WebhooksPage(props: {
  viewer: Viewer;
  webhooks: { id: string; hookUrl: string; disabled: boolean; consecutiveFailures: number; createdAt: string }[];
  deliveries: {
    id: string;
    eventId: string;
    type: string;
    hookUrl: string;
    status: string;
    attempts: number;
    lastStatusCode: number | null;
    lastError: string | null;
    createdAt: string;
  }[];
  secret?: { url: string; value: string };
  notice?: string;
  error?: string;
  /** What was typed into the form before a refusal, to fill it again. */
  typed?: Record<string, string>;
}) {
  const zone = props.viewer.timeZone;
  const { viewer } = props;
  return (
    <Layout title="Webhooks" viewer={viewer} section="webhooks">
      <h1>Webhooks</h1>
      <p class="muted">
        Every new meeting and every finished one is POSTed to these URLs, signed (Standard Webhooks) with the
        registration's secret.
      </p>
      <Alert error={props.error} ok={props.notice} />
      {props.secret ? (
        <div class="panel" role="status">
          <Secret id="webhook-secret" value={props.secret.value} label={`Signing secret for ${props.secret.url}.`} />
        </div>
      ) : null}
      <form method="post" action="/settings/webhooks" class="panel">
        <h2>Register a URL</h2>
        <Csrf viewer={viewer} />
        <label for="hook-url">URL</label>
        <input
          id="hook-url"
          name="hookUrl"
          value={props.typed?.hookUrl}
          type="url"
          required
          maxlength={2000}
          placeholder="https://hooks.example.com/notula"
        />
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
              <td>{formatDate(w.createdAt, zone)}</td>
              <td>
                <PostButton
                  viewer={viewer}
                  action="/settings/webhooks/remove"
                  hidden={{ hookUrl: w.hookUrl }}
                  label="Remove"
                  ariaLabel={`Remove ${w.hookUrl}`}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <h2>Delivery log</h2>
      {props.deliveries.length === 0 ? (
        <p class="muted">Nothing sent yet.</p>
      ) : (
        <Table columns={["Event", "URL", "Status", "Attempts", "Last answer", "At"]} actions>
          {props.deliveries.map((d) => (
            <tr>
              <td>{d.type}</td>
              <td>{d.hookUrl}</td>
              <td>{d.status}</td>
              <td>{d.attempts}</td>
              <td>{d.lastError ?? (d.lastStatusCode === null ? "—" : String(d.lastStatusCode))}</td>
              <td>{formatDate(d.createdAt, zone)}</td>
              <td>
                {d.status === "pending" ? null : (
                  <PostButton
                    viewer={viewer}
                    action={`/settings/webhooks/deliveries/${encodeURIComponent(d.id)}/redeliver`}
                    label="Redeliver"
                    ariaLabel={`Send the ${d.type} event to ${d.hookUrl} again`}
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

export function WorkspaceSettingsPage(props: {
  viewer: Viewer;
  workspace: {
    name: string;
    allowedEmailDomains: string[];
    settings: { defaultLanguage: string; meetingDefaultPermission: string };
  };
  sso?: string;
  notice?: string;
  error?: string;
}) {
  const { viewer, workspace } = props;
  const permission = workspace.settings.meetingDefaultPermission;
  return (
    <Layout title="Workspace" viewer={viewer} section="workspace">
      <h1>Workspace settings</h1>
      <Alert error={props.error} ok={props.notice} />
      <form method="post" action="/settings/workspace" class="panel">
        <Csrf viewer={viewer} />
        <label for="ws-name">Name</label>
        <input id="ws-name" name="name" type="text" required maxlength={200} value={workspace.name} />
        <label for="ws-domains">Allowed email domains (comma or space separated)</label>
        <input
          id="ws-domains"
          name="allowedEmailDomains"
          type="text"
          maxlength={4000}
          value={workspace.allowedEmailDomains.join(", ")}
          placeholder="example.com"
          aria-describedby="ws-domains-help"
        />
        <p id="ws-domains-help" class="small muted">
          {props.sso
            ? `Anyone signing in with ${props.sso} with a verified email of these domains joins as a member.`
            : "Used with single sign-on: anyone the provider vouches for with an email of these domains joins as a member. No provider is configured on this server."}
        </p>
        <label for="ws-language">Default language (a code such as en or de)</label>
        <input
          id="ws-language"
          name="defaultLanguage"
          type="text"
          required
          maxlength={35}
          value={workspace.settings.defaultLanguage}
        />
        <label for="ws-visibility">Who sees a new note</label>
        <select id="ws-visibility" name="meetingDefaultPermission">
          <option value="workspace-read" selected={permission === "workspace-read"}>
            the whole workspace
          </option>
          {permission === "workspace-write" ? (
            <option value="workspace-write" selected>
              the whole workspace (workspace-write, set through the API)
            </option>
          ) : null}
          <option value="only-me" selected={permission === "only-me"}>
            only its creator, until they share it
          </option>
        </select>
        <div class="actions">
          <button type="submit">Save</button>
        </div>
      </form>
    </Layout>
  );
}

/** One folder: who is in it, and (for its owner and admins) adding people or a whole group, and taking them out. */
export function FolderPage(props: {
  viewer: Viewer;
  folder: { id: string; name: string; isPrivate: boolean; ownerUserId: string };
  members: { userId: string; name: string; email: string }[];
  mayManage: boolean;
  /** Workspace members not yet in the folder. */
  others: { userId: string; name: string; email: string }[];
  groups: { id: string; name: string; memberCount: number }[];
  error?: string;
  notice?: string;
}) {
  const { viewer, folder } = props;
  const id = encodeURIComponent(folder.id);
  return (
    <Layout title={folder.name} viewer={viewer} section="folders">
      <p class="small">
        <a href="/settings/folders">← All folders</a>
      </p>
      <h1>{folder.name}</h1>
      <Alert error={props.error} ok={props.notice} />
      <p class="muted">
        {folder.isPrivate
          ? "Private: only its members see it and the notes filed in it."
          : "Everyone in the workspace sees it. Its members matter once it is made private."}
      </p>
      <h2>Members</h2>
      <Table columns={["Name", "Email"]} actions={props.mayManage}>
        {props.members.map((m) => (
          <tr>
            <td>
              {m.name}
              {m.userId === folder.ownerUserId ? <span class="muted"> (owner)</span> : null}
            </td>
            <td>{m.email}</td>
            {props.mayManage ? (
              <td>
                {m.userId === folder.ownerUserId ? null : (
                  <PostButton
                    viewer={viewer}
                    action={`/settings/folders/${id}/members/${encodeURIComponent(m.userId)}/remove`}
                    label="Remove"
                    ariaLabel={`Remove ${m.name} from ${folder.name}`}
                    danger
                    confirm={`Take ${m.name} out of ${folder.name}?`}
                  />
                )}
              </td>
            ) : null}
          </tr>
        ))}
      </Table>
      {props.mayManage ? (
        <div class="row">
          <form method="post" action={`/settings/folders/${id}/members`} class="panel grow">
            <Csrf viewer={viewer} />
            <label for="add-member">Add a person</label>
            <select id="add-member" name="userId" required>
              {props.others.map((m) => (
                <option value={m.userId}>
                  {m.name} ({m.email})
                </option>
              ))}
            </select>
            <div class="actions">
              <button type="submit" disabled={props.others.length === 0}>
                Add
              </button>
            </div>
          </form>
          <form method="post" action={`/settings/folders/${id}/groups`} class="panel grow">
            <Csrf viewer={viewer} />
            <label for="add-group">Add everyone in a group</label>
            <select id="add-group" name="groupId" required>
              {props.groups.map((g) => (
                <option value={g.id}>
                  {g.name} ({g.memberCount})
                </option>
              ))}
            </select>
            <div class="actions">
              <button type="submit" disabled={props.groups.length === 0}>
                Add the group
              </button>
            </div>
          </form>
        </div>
      ) : (
        <p class="small muted">Only the folder's owner or an admin chooses its members.</p>
      )}
    </Layout>
  );
}
