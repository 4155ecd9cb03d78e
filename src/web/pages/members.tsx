import { Alert, Csrf, Layout, PostButton, Secret, Table } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatDate } from "../format.js";

export function MembersPage(props: {
  viewer: Viewer;
  members: {
    id: string;
    userId: string;
    name: string;
    email: string;
    role: string;
    groups: { id: string; name: string }[];
  }[];
  groups: { id: string; name: string }[];
  invites: { id: string; email: string | null; role: string; expiresAt: string }[];
  link?: { label: string; url: string };
  error?: string;
  notice?: string;
}) {
  const zone = props.viewer.timeZone;
  const { viewer } = props;
  return (
    <Layout title="Members" viewer={viewer} section="admin">
      <h1>Members of {viewer.workspace.name}</h1>
      <Alert error={props.error} ok={props.notice} />
      {props.link ? (
        <div class="panel" role="status">
          <Secret id="one-time-link" value={props.link.url} label={props.link.label} />
        </div>
      ) : null}
      <form method="post" action="/settings/members/invite" class="panel">
        <h2>Invite someone</h2>
        <Csrf viewer={viewer} />
        <div class="row">
          <div class="grow">
            <label for="invite-email">Email (leave empty for a link anyone can use)</label>
            <input id="invite-email" name="email" type="email" />
          </div>
          <div>
            <label for="invite-role">Role</label>
            <select id="invite-role" name="role">
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </div>
        </div>
        <div class="actions">
          <button type="submit">Create invite link</button>
        </div>
      </form>
      <h2>Members</h2>
      <Table columns={["Name", "Email", "Role", "Groups"]} actions>
        {props.members.map((m) => (
          <tr>
            <td>{m.name}</td>
            <td>{m.email}</td>
            <td>
              <form method="post" action={`/settings/members/${encodeURIComponent(m.id)}/role`} class="row">
                <Csrf viewer={viewer} />
                <select name="role" aria-label={`Role of ${m.name}`}>
                  <option value="member" selected={m.role === "member"}>
                    member
                  </option>
                  <option value="admin" selected={m.role === "admin"}>
                    admin
                  </option>
                </select>
                <button type="submit" class="secondary fit" aria-label={`Save the role of ${m.name}`}>
                  Save
                </button>
              </form>
            </td>
            <td>
              <MemberGroups viewer={viewer} member={m} groups={props.groups} />
            </td>
            <td>
              {m.userId === viewer.userId ? null : (
                <div class="actions">
                  <PostButton
                    viewer={viewer}
                    action={`/settings/members/${encodeURIComponent(m.id)}/reset-link`}
                    label="Reset link"
                    ariaLabel={`Password reset link for ${m.name}`}
                  />
                  <a
                    class="button secondary"
                    href={`/settings/members/${encodeURIComponent(m.id)}/remove`}
                    aria-label={`Remove ${m.name}`}
                  >
                    Remove…
                  </a>
                </div>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <form method="post" action="/settings/members/groups" class="panel">
        <h2>New user group</h2>
        <Csrf viewer={viewer} />
        <div class="row">
          <div class="grow">
            <label for="group-name">Name</label>
            <input id="group-name" name="name" type="text" required maxlength={200} />
          </div>
        </div>
        <div class="actions">
          <button type="submit">Create group</button>
        </div>
      </form>
      <h2>Pending invites</h2>
      {props.invites.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        // The link itself was shown once, when the invite was made; here it can only be revoked.
        <Table columns={["For", "Role", "Expires"]} actions>
          {props.invites.map((i) => (
            <tr>
              <td>{i.email ?? "anyone with the link"}</td>
              <td>{i.role}</td>
              <td>{formatDate(i.expiresAt, zone)}</td>
              <td>
                <PostButton
                  viewer={viewer}
                  action={`/settings/members/invites/${encodeURIComponent(i.id)}/revoke`}
                  label="Revoke"
                  ariaLabel={`Revoke the invite for ${i.email ?? "anyone with the link"}`}
                  danger
                  confirm="Revoke this invite? Its link stops working."
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Layout>
  );
}

export function RemoveMemberPage(props: { viewer: Viewer; member: { id: string; name: string; email: string } }) {
  const { viewer, member } = props;
  return (
    <Layout title="Remove member" viewer={viewer} section="admin" narrow>
      <h1>
        Remove {member.name} ({member.email})?
      </h1>
      <p>
        They lose access to {viewer.workspace.name} at once: their API keys here are revoked, their assistant access
        ends and they are signed out. Their notes stay.
      </p>
      <form method="post" action={`/settings/members/${encodeURIComponent(member.id)}/remove`} class="actions">
        <Csrf viewer={viewer} />
        <button type="submit" class="danger">
          Remove {member.name}
        </button>
        <a class="button secondary" href="/settings/members">
          Keep them
        </a>
      </form>
    </Layout>
  );
}

/** A member's groups as checkboxes, folded away until wanted: the table stays readable. */
function MemberGroups(props: {
  viewer: Viewer;
  member: { id: string; name: string; groups: { id: string; name: string }[] };
  groups: { id: string; name: string }[];
}) {
  const { member } = props;
  const has = new Set(member.groups.map((g) => g.id));
  const summary = member.groups.length ? member.groups.map((g) => g.name).join(", ") : "none";
  if (!props.groups.length) return <span class="muted">{summary}</span>;
  return (
    <details>
      <summary aria-label={`Groups of ${member.name}: ${summary}`}>{summary}</summary>
      <form method="post" action={`/settings/members/${encodeURIComponent(member.id)}/groups`}>
        <Csrf viewer={props.viewer} />
        <fieldset>
          <legend>Groups of {member.name}</legend>
          {props.groups.map((g) => (
            <label>
              <input type="checkbox" name="groupIds" value={g.id} checked={has.has(g.id)} /> {g.name}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="secondary fit" aria-label={`Save the groups of ${member.name}`}>
          Save
        </button>
      </form>
    </details>
  );
}
