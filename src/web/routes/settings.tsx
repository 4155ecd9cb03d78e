// Settings: your API keys and account (name, password, sessions), folders, and for
// admins the members (invites, roles, reset links, removal) and webhooks.
import { Hono } from "hono";
import { AppError, BadRequestError, ForbiddenError } from "../../core/errors.js";
import type { ScopeName } from "../../core/principal.js";
import { scopesForRole as scopesFor } from "../../core/access.js";
import type { Services } from "../../services/index.js";
import { csrfOk, requireViewer, viewerOf, type WebContext, type WebEnv } from "../context.js";
import { MembersPage, RemoveMemberPage } from "../pages/members.js";
import { AccountPage, KeysPage } from "../pages/settings.js";
import { FolderPage, FoldersPage, WebhooksPage, WorkspaceSettingsPage } from "../pages/workspace.js";
import { WorkspaceUpdateBody } from "../../shared/schemas/workspace.js";
import { textField, textFields } from "../form-fields.js";
import { render } from "../render.js";
import { formExpired } from "../form-expired.js";
import { createFlash } from "../flash.js";
import { SpeechSettingsPage } from "../pages/speech.js";
import { DEFAULT_MODEL, MODELS } from "../../ai/models.js";
import { AiConfigUpdateBody } from "../../shared/schemas/templates.js";

type Status = 200 | 400 | 403 | 404 | 409;
type Extra = Record<string, unknown>;
type Page = (c: WebContext, extra?: Extra, status?: Status) => Promise<Response>;
type Form = Record<string, string | File | (string | File)[]>;

const text = textField;
const name = (f: Form, what: string, max: number) => {
  const value = text(f, "name").trim();
  if (!value || value.length > max) throw new BadRequestError(`The ${what} needs a name of 1 to ${max} characters.`);
  return value;
};

/** A path parameter of the route (the handlers here are typed for any path). */
const param = (c: WebContext, key: string) => c.req.param(key) ?? "";

function requireAdmin(c: WebContext) {
  const viewer = viewerOf(c);
  if (viewer.role !== "admin") throw new ForbiddenError("Only admins of this workspace can do that.");
  return viewer;
}

export function settingsPages(services: Services, opts: { publicUrl: string; ssoName?: string }) {
  const app = new Hono<WebEnv>();
  app.use("/settings/*", requireViewer);
  const flash = createFlash(services, opts.publicUrl);

  /**
   * A settings form's POST: its CSRF token first (a forged form changes nothing), the
   * admin check where asked, then `run`; a refusal from a service is shown on the page
   * beside the form, not as an error page.
   */
  const form =
    (page: Page, run: (c: WebContext, f: Form) => Response | Promise<Response>, o: { admin?: boolean } = {}) =>
    async (c: WebContext) => {
      const f = await c.req.parseBody({ all: true });
      if (!(await csrfOk(c, f))) return formExpired(c);
      if (o.admin) requireAdmin(c);
      try {
        return await run(c, f);
      } catch (err) {
        if (err instanceof AppError && err.status < 500 && err.status !== 403)
          return page(c, { error: err.message }, err.status as Status);
        throw err;
      }
    };

  const keysPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <KeysPage
        viewer={viewer}
        keys={await services.apiKeys.listOwn(viewer.principal)}
        allowed={scopesFor(viewer.role)}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/keys", async (c) => keysPage(c, await flash.take(c)));
  app.post(
    "/settings/keys",
    form(keysPage, async (c, f) => {
      const viewer = viewerOf(c);
      const created = await services.apiKeys.createOwn(viewer.principal, viewer.role, {
        name: text(f, "name"),
        scopes: textFields(f, "scopes") as ScopeName[],
      });
      return flash.redirect(c, "/settings/keys", { created: { key: created.key, name: created.name } });
    }),
  );
  app.post(
    "/settings/keys/:id/revoke",
    form(keysPage, async (c) => {
      await services.apiKeys.revokeOwn(viewerOf(c).principal, param(c, "id"));
      return flash.redirect(c, "/settings/keys", { notice: "The key is revoked." });
    }),
  );

  const accountPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <AccountPage viewer={viewer} sessions={await services.accounts.sessions(viewer.session)} {...extra} />,
      status,
    );
  };
  app.get("/settings/account", async (c) => accountPage(c, await flash.take(c)));
  app.post(
    "/settings/account/name",
    form(accountPage, async (c, f) => {
      await services.accounts.rename(viewerOf(c).session, text(f, "name"));
      return c.redirect("/settings/account", 303);
    }),
  );
  app.post(
    "/settings/account/password",
    form(accountPage, async (c, f) => {
      if (text(f, "password") !== text(f, "confirm")) throw new BadRequestError("The two new passwords differ.");
      await services.accounts.changePassword(viewerOf(c).session, text(f, "current"), text(f, "password"));
      return flash.redirect(c, "/settings/account", {
        notice: "Password changed; your other sessions are signed out.",
      });
    }),
  );
  app.post(
    "/settings/account/sessions/revoke-others",
    form(accountPage, async (c) => {
      const n = await services.accounts.signOutOthers(viewerOf(c).session);
      return flash.redirect(c, "/settings/account", { notice: `Signed out ${n} other session${n === 1 ? "" : "s"}.` });
    }),
  );
  app.post(
    "/settings/account/sessions/:handle/revoke",
    form(accountPage, async (c) => {
      await services.accounts.revokeSession(viewerOf(c).session, param(c, "handle"));
      return flash.redirect(c, "/settings/account", { notice: "That session is signed out." });
    }),
  );

  const foldersPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <FoldersPage viewer={viewer} folders={await services.folders.list(viewer.principal)} {...extra} />,
      status,
    );
  };
  const backToFolders = (c: WebContext) => c.redirect("/settings/folders", 303);
  app.get("/settings/folders", async (c) => foldersPage(c, await flash.take(c)));
  app.post(
    "/settings/folders",
    form(foldersPage, async (c, f) => {
      const viewer = viewerOf(c);
      const folderName = name(f, "folder", 200);
      await services.folders.create(viewer.principal, {
        name: folderName,
        ownerUserId: viewer.userId,
        isPrivate: text(f, "private") === "1",
      });
      return flash.redirect(c, "/settings/folders", { notice: `The folder ${folderName} is made.` });
    }),
  );
  app.post(
    "/settings/folders/:id",
    form(foldersPage, async (c, f) => {
      await services.folders.update(viewerOf(c).principal, param(c, "id"), { name: name(f, "folder", 200) });
      return backToFolders(c);
    }),
  );
  app.post(
    "/settings/folders/:id/privacy",
    form(foldersPage, async (c, f) => {
      await services.folders.update(viewerOf(c).principal, param(c, "id"), { isPrivate: text(f, "private") === "1" });
      return backToFolders(c);
    }),
  );
  app.post(
    "/settings/folders/:id/delete",
    form(foldersPage, async (c) => {
      await services.folders.delete(viewerOf(c).principal, param(c, "id"));
      return flash.redirect(c, "/settings/folders", { notice: "The folder is deleted; its notes stay." });
    }),
  );

  const folderPage = async (c: WebContext, extra: Extra = {}, status: Status = 200) => {
    const viewer = viewerOf(c);
    const { folder, members, mayManage } = await services.folders.detail(viewer.principal, param(c, "id"));
    const inFolder = new Set(members.map((m) => m.userId));
    const everyone = mayManage
      ? (await services.directory.listMembers(viewer.principal, { limit: 500, offset: 0 })).items
      : [];
    return render(
      c,
      <FolderPage
        viewer={viewer}
        folder={folder}
        members={members}
        mayManage={mayManage}
        others={everyone
          .filter((m) => !inFolder.has(m.userId))
          .map((m) => ({ userId: m.userId, name: m.name, email: m.email }))}
        groups={mayManage ? await services.directory.listGroups(viewer.principal) : []}
        {...extra}
      />,
      status,
    );
  };
  const toFolder = (c: WebContext) => `/settings/folders/${encodeURIComponent(param(c, "id"))}`;
  app.get("/settings/folders/:id", async (c) => folderPage(c, await flash.take(c)));
  app.post(
    "/settings/folders/:id/members",
    form(folderPage, async (c, f) => {
      await services.folders.addMember(viewerOf(c).principal, param(c, "id"), text(f, "userId"));
      return flash.redirect(c, toFolder(c), { notice: "Added." });
    }),
  );
  app.post(
    "/settings/folders/:id/members/:userId/remove",
    form(folderPage, async (c) => {
      await services.folders.removeMember(viewerOf(c).principal, param(c, "id"), param(c, "userId"));
      return flash.redirect(c, toFolder(c), { notice: "Removed from the folder." });
    }),
  );
  app.post(
    "/settings/folders/:id/groups",
    form(folderPage, async (c, f) => {
      const n = await services.folders.addGroup(viewerOf(c).principal, param(c, "id"), text(f, "groupId"));
      return flash.redirect(c, toFolder(c), {
        notice: n ? `${n} ${n === 1 ? "person" : "people"} added.` : "Everyone in that group was a member already.",
      });
    }),
  );

  const webhooksPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAdmin(c);
    const deliveries = (await services.webhooks.deliveries(viewer.principal, 50, 0)).items;
    return render(
      c,
      <WebhooksPage
        viewer={viewer}
        webhooks={await services.webhooks.list(viewer.principal)}
        deliveries={deliveries}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/webhooks", async (c) => webhooksPage(c, await flash.take(c)));
  app.post(
    "/settings/webhooks",
    form(
      webhooksPage,
      async (c, f) => {
        const registered = await services.webhooks.register(viewerOf(c).principal, text(f, "hookUrl"));
        return flash.redirect(c, "/settings/webhooks", {
          secret: { url: text(f, "hookUrl"), value: registered.secret },
        });
      },
      { admin: true },
    ),
  );
  app.post(
    "/settings/webhooks/remove",
    form(
      webhooksPage,
      async (c, f) => {
        await services.webhooks.remove(viewerOf(c).principal, text(f, "hookUrl"));
        return c.redirect("/settings/webhooks", 303);
      },
      { admin: true },
    ),
  );

  app.post(
    "/settings/webhooks/deliveries/:id/redeliver",
    form(
      webhooksPage,
      async (c) => {
        await services.webhooks.redeliver(viewerOf(c).principal, param(c, "id"));
        return flash.redirect(c, "/settings/webhooks", {
          notice: "Queued for delivery; reload to see how it went.",
        });
      },
      { admin: true },
    ),
  );

  const membersPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAdmin(c);
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
          link: {
            label: `Invite link for ${email ?? "anyone with the link"} (${role}).`,
            url: `${opts.publicUrl}/invite/${invite.code}`,
          },
        });
      },
      { admin: true },
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
      { admin: true },
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
      { admin: true },
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
      { admin: true },
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
      { admin: true },
    ),
  );
  app.get("/settings/members/:id/remove", async (c) => {
    const viewer = requireAdmin(c);
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
      { admin: true },
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
            url: `${opts.publicUrl}/account/password/${token}`,
          },
        });
      },
      { admin: true },
    ),
  );

  const workspacePage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAdmin(c);
    return render(
      c,
      <WorkspaceSettingsPage
        viewer={viewer}
        workspace={await services.workspaces.get(viewer.principal.workspaceId)}
        sso={opts.ssoName}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/workspace", async (c) => workspacePage(c, c.req.query("saved") ? { notice: "Saved." } : {}));
  app.post(
    "/settings/workspace",
    form(
      workspacePage,
      async (c, f) => {
        // The same schema as PATCH /v1/workspace: one set of rules for both.
        const parsed = WorkspaceUpdateBody.safeParse({
          name: text(f, "name"),
          allowedEmailDomains: text(f, "allowedEmailDomains")
            .split(/[\s,;]+/)
            .filter(Boolean),
          settings: {
            defaultLanguage: text(f, "defaultLanguage"),
            meetingDefaultPermission: text(f, "meetingDefaultPermission"),
          },
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new BadRequestError(
            `${issue.path.filter((p) => typeof p === "string").join(" ") || "form"}: ${issue.message}`,
          );
        }
        await services.workspaces.update(viewerOf(c).principal, parsed.data);
        // A new page, so that the top bar shows a new name too.
        return c.redirect("/settings/workspace?saved=1", 303);
      },
      { admin: true },
    ),
  );

  const speechPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = requireAdmin(c);
    const ws = viewer.principal.workspaceId;
    return render(
      c,
      <SpeechSettingsPage
        viewer={viewer}
        config={await services.aiConfig.get(viewer.principal)}
        problem={await services.aiConfig.transcriptionProblem(ws)}
        setup={services.speechSetup.status(viewer.principal)}
        {...extra}
      />,
      status,
    );
  };
  app.get("/settings/speech", async (c) => speechPage(c, c.req.query("saved") ? { notice: "Saved." } : {}));
  // For the page's progress bar.
  app.get("/settings/speech/status", (c) => c.json(services.speechSetup.status(requireAdmin(c).principal)));
  app.post(
    "/settings/speech/setup",
    form(
      speechPage,
      async (c, f) => {
        const model = text(f, "model") || DEFAULT_MODEL;
        if (!MODELS.some((m) => m.name === model))
          throw new BadRequestError(`There is no model "${model}"; choose one from the list.`);
        services.speechSetup.start(viewerOf(c).principal, model);
        return c.redirect("/settings/speech", 303);
      },
      { admin: true },
    ),
  );
  app.post(
    "/settings/speech/server",
    form(
      speechPage,
      async (c, f) => {
        const apiKey = text(f, "apiKey");
        // The same schema as PUT /v1/ai-config.
        const parsed = AiConfigUpdateBody.safeParse({
          transcription: {
            engine: "openai",
            url: text(f, "url").trim(),
            ...(text(f, "model").trim() ? { model: text(f, "model").trim() } : {}),
            ...(apiKey ? { apiKey } : {}),
          },
        });
        if (!parsed.success) throw new BadRequestError(`The server address: ${parsed.error.issues[0].message}`);
        await services.aiConfig.update(viewerOf(c).principal, parsed.data, services.templates);
        return c.redirect("/settings/speech?saved=1", 303);
      },
      { admin: true },
    ),
  );

  return app;
}
