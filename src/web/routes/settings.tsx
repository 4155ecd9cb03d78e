// Settings: your API keys, your account (name, password, sessions), and for admins
// the members page (invites, password reset links).
import { Hono } from "hono";
import { AppError, BadRequestError, ForbiddenError } from "../../core/errors.js";
import type { ScopeName } from "../../core/principal.js";
import { scopesFor } from "../../services/api-keys.js";
import type { Services } from "../../services/index.js";
import { csrfOk, requireViewer, viewerOf, type WebContext, type WebEnv } from "../context.js";
import { AccountPage, KeysPage } from "../pages/settings.js";
import { MembersPage, RemoveMemberPage } from "../pages/members.js";
import { FoldersPage, WebhooksPage } from "../pages/workspace.js";
import { MessagePage } from "../pages/sign-in.js";
import { render } from "../render.js";

const text = (f: Record<string, unknown>, k: string) => (typeof f[k] === "string" ? (f[k] as string) : "");
const all = (f: Record<string, unknown>, k: string) => (Array.isArray(f[k]) ? (f[k] as unknown[]) : f[k] === undefined ? [] : [f[k]]).filter((x): x is string => typeof x === "string");

export function settingsPages(services: Services, opts: { publicUrl: string }) {
  const app = new Hono<WebEnv>();
  app.use("/settings/*", requireViewer);
  const refuse = (c: WebContext) =>
    render(c, <MessagePage title="Form expired" message="The form had expired or did not come from this page; nothing was changed. Reload the page and try again." viewer={c.get("viewer")} />, 403);
  /** Runs a form's change; a refusal from the service is shown on the page, not as an error page. */
  const attempt = async (c: WebContext, change: () => void, page: (e: { error?: string; notice?: string }, status: 200 | 400 | 404 | 409) => Promise<Response>, notice: string) => {
    try {
      change();
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return page({ error: err.message }, err.status as 400 | 404 | 409);
      throw err;
    }
    return page({ notice }, 200);
  };

  // API keys
  const keysPage = (c: WebContext, extra: Parameters<typeof KeysPage>[0] extends infer P ? Partial<P> : never = {}, status: 200 | 400 | 404 | 409 = 200) => {
    const viewer = viewerOf(c);
    return render(c, <KeysPage viewer={viewer} keys={services.apiKeys.listOwn(viewer.principal)} allowed={scopesFor(viewer.role)} {...extra} />, status);
  };
  app.get("/settings/keys", (c) => keysPage(c));
  app.post("/settings/keys", async (c) => {
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return refuse(c);
    const viewer = viewerOf(c);
    try {
      const created = services.apiKeys.createOwn(viewer.principal, viewer.role, { name: text(f, "name"), scopes: all(f, "scopes") as ScopeName[] });
      return keysPage(c, { created: { key: created.key, name: created.name } });
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return keysPage(c, { error: err.message }, 400);
      throw err;
    }
  });
  app.post("/settings/keys/:id/revoke", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return refuse(c);
    return attempt(c, () => services.apiKeys.revokeOwn(viewerOf(c).principal, c.req.param("id")), (e, s) => keysPage(c, e, s), "The key is revoked.");
  });

  // Account
  const accountPage = (c: WebContext, extra: { error?: string; notice?: string } = {}, status: 200 | 400 | 404 | 409 = 200) => {
    const viewer = viewerOf(c);
    return render(c, <AccountPage viewer={viewer} sessions={services.accounts.sessions(viewer.session)} {...extra} />, status);
  };
  app.get("/settings/account", (c) => accountPage(c));
  app.post("/settings/account/name", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    const viewer = viewerOf(c);
    return attempt(c, () => services.accounts.rename(viewer.session, text(f, "name")), (e, s) => (e.notice ? Promise.resolve(c.redirect("/settings/account", 303)) : accountPage(c, e, s)), "");
  });
  app.post("/settings/account/password", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    if (text(f, "password") !== text(f, "confirm")) return accountPage(c, { error: "The two new passwords differ." }, 400);
    const viewer = viewerOf(c);
    return attempt(c, () => services.accounts.changePassword(viewer.session, text(f, "current"), text(f, "password")), (e, s) => accountPage(c, e, s), "Password changed; your other sessions are signed out.");
  });
  app.post("/settings/account/sessions/revoke-others", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return refuse(c);
    const n = services.accounts.signOutOthers(viewerOf(c).session);
    return accountPage(c, { notice: `Signed out ${n} other session${n === 1 ? "" : "s"}.` });
  });
  app.post("/settings/account/sessions/:handle/revoke", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return refuse(c);
    return attempt(c, () => services.accounts.revokeSession(viewerOf(c).session, c.req.param("handle")), (e, s) => accountPage(c, e, s), "That session is signed out.");
  });

  // Folders
  const foldersPage = (c: WebContext, extra: { error?: string } = {}, status: 200 | 400 | 404 | 409 = 200) => {
    const viewer = viewerOf(c);
    return render(c, <FoldersPage viewer={viewer} folders={services.folders.list(viewer.principal)} {...extra} />, status);
  };
  const folderChange = async (c: WebContext, change: (f: Record<string, unknown>) => void) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    try {
      change(f);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return foldersPage(c, { error: err.message }, err.status as 400 | 404 | 409);
      throw err;
    }
    return c.redirect("/settings/folders", 303);
  };
  app.get("/settings/folders", (c) => foldersPage(c));
  app.post("/settings/folders", (c) =>
    folderChange(c, (f) => {
      const viewer = viewerOf(c);
      const name = text(f, "name").trim();
      if (!name || name.length > 200) throw new BadRequestError("The folder needs a name of 1 to 200 characters.");
      services.folders.create(viewer.principal, { name, ownerUserId: viewer.userId, isPrivate: text(f, "private") === "1" });
    }),
  );
  app.post("/settings/folders/:id", (c) =>
    folderChange(c, (f) => {
      const name = text(f, "name").trim();
      if (!name || name.length > 200) throw new BadRequestError("The folder needs a name of 1 to 200 characters.");
      services.folders.update(viewerOf(c).principal, c.req.param("id"), { name });
    }),
  );
  app.post("/settings/folders/:id/delete", (c) => folderChange(c, () => services.folders.delete(viewerOf(c).principal, c.req.param("id"))));

  // Webhooks (admins)
  const webhooksPage = async (c: WebContext, extra: { error?: string; secret?: { url: string; value: string } } = {}, status: 200 | 400 | 404 | 409 = 200) => {
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins manage webhooks.");
    return render(
      c,
      <WebhooksPage viewer={viewer} webhooks={services.webhooks.list(viewer.principal)} deliveries={services.webhooks.deliveries(viewer.principal, 50, 0).items} {...extra} />,
      status,
    );
  };
  app.get("/settings/webhooks", (c) => webhooksPage(c));
  app.post("/settings/webhooks", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins manage webhooks.");
    try {
      const r = await services.webhooks.register(viewer.principal, text(f, "hookUrl"));
      return webhooksPage(c, { secret: { url: text(f, "hookUrl"), value: r.secret } });
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return webhooksPage(c, { error: err.message }, err.status as 400);
      throw err;
    }
  });
  app.post("/settings/webhooks/remove", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins manage webhooks.");
    try {
      services.webhooks.remove(viewer.principal, text(f, "hookUrl"));
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return webhooksPage(c, { error: err.message }, err.status as 404);
      throw err;
    }
    return c.redirect("/settings/webhooks", 303);
  });

  // Members (admins)
  const membersPage = (c: WebContext, extra: { error?: string; link?: { label: string; url: string } } = {}, status: 200 | 400 | 404 | 409 = 200) => {
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins manage members.");
    const members = services.directory.listMembers(viewer.principal, { limit: 100, offset: 0 }).items;
    const invites = services.invites.listWithFolders(viewer.principal, 100, 0).items.map((i) => ({ ...i, link: `${opts.publicUrl}/invite/${i.code}` }));
    return render(c, <MembersPage viewer={viewer} members={members} invites={invites} {...extra} />, status);
  };
  app.get("/settings/members", (c) => membersPage(c));
  app.post("/settings/members/invite", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins invite members.");
    const email = text(f, "email").trim() || null;
    const role = text(f, "role") === "admin" ? "admin" : "member";
    try {
      const invite = services.invites.create(viewer.principal, { email, role, isUrlInvite: !email });
      return membersPage(c, { link: { label: `Invite link for ${email ?? "anyone with the link"} (${role}).`, url: `${opts.publicUrl}/invite/${invite.code}` } });
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return membersPage(c, { error: err.message }, err.status as 400 | 409);
      throw err;
    }
  });
  app.post("/settings/members/:id/role", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return refuse(c);
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins change roles.");
    try {
      services.directory.setRole(viewer.principal, c.req.param("id"), text(f, "role") === "admin" ? "admin" : "member");
    } catch (err) {
      if (err instanceof AppError && err.status === 409) return membersPage(c, { error: err.message }, 409);
      throw err;
    }
    return c.redirect("/settings/members", 303);
  });
  app.get("/settings/members/:id/remove", (c) => {
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins remove members.");
    return render(c, <RemoveMemberPage viewer={viewer} member={services.directory.getMember(viewer.principal, c.req.param("id"))} />);
  });
  app.post("/settings/members/:id/remove", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return refuse(c);
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins remove members.");
    try {
      services.directory.removeMember(viewer.principal, c.req.param("id"));
    } catch (err) {
      if (err instanceof AppError && err.status === 409) return membersPage(c, { error: err.message }, 409);
      throw err;
    }
    return c.redirect("/settings/members", 303);
  });
  app.post("/settings/members/:id/reset-link", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return refuse(c);
    const viewer = viewerOf(c);
    if (viewer.role !== "admin") throw new ForbiddenError("Only admins issue reset links.");
    // getMember is scoped to the admin's workspace: another workspace's member is 404.
    const member = services.directory.getMember(viewer.principal, c.req.param("id"));
    const token = services.accounts.issueLink(member.userId, "reset");
    return membersPage(c, { link: { label: `Password reset link for ${member.name} (valid 24 hours, once).`, url: `${opts.publicUrl}/account/password/${token}` } });
  });

  return app;
}
