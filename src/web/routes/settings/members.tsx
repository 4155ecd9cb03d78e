// Settings → members (admins): invites, roles, groups, reset links, removal.
import { viewerOf, type WebContext } from "../../context.js";
import { MembersPage, RemoveMemberPage } from "../../pages/members.js";
import { textFields } from "../../form-fields.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import { workspacePolicy } from "../../../core/access.js";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, name, param, requireAllowed, type Page, type SettingsKit } from "./kit.js";

export function memberSettings(app: Hono<WebEnv>, services: Services, { form, flash, publicUrl }: SettingsKit) {
  const membersPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAllowed(c);
    const members = (await services.directory.listMembers(viewer.principal, { limit: 100, offset: 0 })).items;
    const groups = await services.directory.listGroups(viewer.principal);
    const invites = (await services.invites.listWithFolders(viewer.principal, 100, 0)).items;
    return render(
      c,
      <MembersPage viewer={viewer} members={members} groups={groups} invites={invites} {...extra} />,
      status,
    );
  };
  const backToMembers = (c: WebContext) => c.redirect("/settings/members", 303);
  app.get("/settings/members", async (c) => membersPage(c, await flash.take(c)));
  app.post(
    "/settings/members/invite",
    form(
      membersPage,
      async (c, f) => {
        const email = text(f, "email").trim() || null;
        const role = text(f, "role") === "admin" ? "admin" : "member";
        const invite = await services.invites.create(viewerOf(c).principal, { email, role, isUrlInvite: !email });
        return flash.redirect(c, "/settings/members", {
          // With mail set up, an invite to an address is emailed; the link is shown as well, to pass on by hand.
          notice:
            email && (await services.mail.outbox.configured(viewerOf(c).principal.workspaceId))
              ? `The invite is emailed to ${email}.`
              : undefined,
          link: {
            label: `Invite link for ${email ?? "anyone with the link"} (${role}).`,
            url: `${publicUrl}/invite/${invite.code}`,
          },
        });
      },
      { allowed: workspacePolicy.manage },
    ),
  );
  app.post(
    "/settings/members/invites/:id/revoke",
    form(
      membersPage,
      async (c) => {
        await services.invites.delete(viewerOf(c).principal, param(c, "id"));
        return flash.redirect(c, "/settings/members", { notice: "The invite is revoked; its link no longer works." });
      },
      { allowed: workspacePolicy.manage },
    ),
  );
  app.post(
    "/settings/members/:id/role",
    form(
      membersPage,
      async (c, f) => {
        await services.directory.setRole(
          viewerOf(c).principal,
          param(c, "id"),
          text(f, "role") === "admin" ? "admin" : "member",
        );
        return backToMembers(c);
      },
      { allowed: workspacePolicy.manage },
    ),
  );
  app.post(
    "/settings/members/groups",
    form(
      membersPage,
      async (c, f) => {
        await services.directory.createGroup(viewerOf(c).principal, { name: name(f, "group", 200) });
        return backToMembers(c);
      },
      { allowed: workspacePolicy.manage },
    ),
  );
  app.post(
    "/settings/members/:id/groups",
    form(
      membersPage,
      async (c, f) => {
        await services.directory.setMemberGroups(viewerOf(c).principal, param(c, "id"), textFields(f, "groupIds"));
        return backToMembers(c);
      },
      { allowed: workspacePolicy.manage },
    ),
  );
  app.get("/settings/members/:id/remove", async (c) => {
    const viewer = requireAllowed(c);
    return render(
      c,
      <RemoveMemberPage
        viewer={viewer}
        member={await services.directory.getMember(viewer.principal, param(c, "id"))}
      />,
    );
  });
  app.post(
    "/settings/members/:id/remove",
    form(
      membersPage,
      async (c) => {
        await services.directory.removeMember(viewerOf(c).principal, param(c, "id"));
        return backToMembers(c);
      },
      { allowed: workspacePolicy.manage },
    ),
  );
  app.post(
    "/settings/members/:id/reset-link",
    form(
      membersPage,
      async (c) => {
        // getMember is scoped to the admin's workspace: another workspace's member is 404.
        const member = await services.directory.getMember(viewerOf(c).principal, param(c, "id"));
        const token = await services.accounts.issueLink(member.userId, "reset");
        return flash.redirect(c, "/settings/members", {
          link: {
            label: `Password reset link for ${member.name} (valid 24 hours, once).`,
            url: `${publicUrl}/account/password/${token}`,
          },
        });
      },
      { allowed: workspacePolicy.manage },
    ),
  );
}
