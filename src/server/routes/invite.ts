// /invite/{code}: an invite link's page. It creates the account (or signs in an
// existing one) and joins the workspace.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { esc, page } from "../../oauth/pages.js";
import type { Services } from "../../services/index.js";
import { AppError, BadRequestError, RateLimitError } from "../../core/errors.js";
import { clientAddress, SESSION_COOKIE, sessionCookieOptions } from "../../http/session-cookie.js";
import { createFlash } from "../../web/flash.js";

const CSRF_COOKIE = "notula_invite_csrf";

/** What the role being offered means, in a sentence. */
const ROLE_WORDS: Record<string, string> = {
  member: "You are invited to join as a member: you will record meetings and read the notes shared with the workspace.",
  admin: "You are invited to join as an admin: you will also invite people and manage the workspace's settings.",
};

function headers(c: Context) {
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-store");
}

function form(o: {
  code: string;
  csrf: string;
  workspace: string;
  role: string;
  email: string | null;
  error?: string;
  name?: string;
}) {
  return page(
    "Join",
    `<h1>Join ${esc(o.workspace)}</h1><p class="muted">${esc(ROLE_WORDS[o.role] ?? `You are invited to join as ${o.role}.`)}</p>
${o.error ? `<p class="error" role="alert">${esc(o.error)}</p>` : ""}
<form method="post" action="/invite/${esc(o.code)}"><input type="hidden" name="csrf" value="${esc(o.csrf)}">
<label for="name">Name</label><input id="name" name="name" type="text" autocomplete="name" value="${esc(o.name ?? "")}">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="username" value="${esc(o.email ?? "")}"${o.email ? " readonly" : ""}>
<label for="password">Password (at least 8 characters)</label><input id="password" name="password" type="password" required minlength="8" autocomplete="new-password">
<label for="confirm">The same password again</label><input id="confirm" name="confirm" type="password" required minlength="8" autocomplete="new-password">
<button type="submit">Join</button></form>
<p class="muted">Already have an account? Use its email and password (twice).</p>`,
  );
}

export function inviteLinkRoutes(services: Services, publicUrl: string) {
  const app = new Hono();
  const flash = createFlash(services, publicUrl);

  app.get("/invite/:code", async (c) => {
    headers(c);
    const found = await services.invites.pendingByCode(c.req.param("code"));
    if (!found)
      return c.html(
        page("Invite", `<h1>Invite not found</h1><p class="error">This invite link has expired or has been used.</p>`),
        404,
      );
    const csrf = randomBytes(18).toString("base64url");
    setCookie(c, CSRF_COOKIE, csrf, { httpOnly: true, sameSite: "Strict", path: "/invite" });
    return c.html(
      form({
        code: c.req.param("code"),
        csrf,
        workspace: found.workspace.name,
        role: found.invite.role,
        email: found.invite.email,
      }),
    );
  });

  app.post("/invite/:code", async (c) => {
    headers(c);
    const code = c.req.param("code");
    const f = await c.req.parseBody();
    const one = (k: string) => String(f[k] ?? "");
    const cookie = getCookie(c, CSRF_COOKIE) ?? "";
    const sent = one("csrf");
    if (!cookie || cookie.length !== sent.length || !timingSafeEqual(Buffer.from(cookie), Buffer.from(sent)))
      return c.html(
        page(
          "Invite",
          `<h1>Cannot continue</h1><p class="error">The form has expired; open the invite link again.</p>`,
        ),
        400,
      );
    const found = await services.invites.pendingByCode(code);
    if (!found)
      return c.html(
        page("Invite", `<h1>Invite not found</h1><p class="error">This invite link has expired or has been used.</p>`),
        404,
      );
    const email = found.invite.email ?? one("email");
    try {
      // A new password is typed twice, as on the account set-up page: a slip is caught here.
      if (one("password") !== one("confirm")) throw new BadRequestError("The two passwords differ.");
      await services.invites.accept(code, {
        name: one("name"),
        email,
        password: one("password"),
        address: clientAddress(c),
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Too many tries is said as such (429); any other refusal is shown beside the form.
      return c.html(
        form({
          code,
          csrf: sent,
          workspace: found.workspace.name,
          role: found.invite.role,
          email: found.invite.email,
          error:
            err instanceof RateLimitError
              ? `Too many attempts. Try again in ${Math.ceil(err.retryAfterSec / 60)} minutes.`
              : err.message,
          name: one("name"),
        }),
        err instanceof RateLimitError ? 429 : (err.status as 400),
      );
    }
    // The person just proved the password: they are signed in to the web app, in this workspace.
    const signed = await services.accounts.signInVerified(
      { email, name: one("name") },
      c.req.header("user-agent") ?? "",
    );
    if (signed) {
      setCookie(c, SESSION_COOKIE, signed.sessionId, sessionCookieOptions(publicUrl));
      const session = await services.accounts.session(signed.sessionId);
      if (session) await services.accounts.chooseWorkspace(session, found.workspace.id);
      // Off the form's address at once: a reload must not submit it again.
      return flash.redirectSignedIn(c, signed.userId, "/notes", {
        notice: `Welcome to ${found.workspace.name}: you have joined. Your meeting assistant and the notula CLI sign in with this email and password too.`,
      });
    }
    return c.html(
      page(
        "Welcome",
        `<h1>Welcome to ${esc(found.workspace.name)}</h1><p>You have joined. <a href="/notes">Open the notes</a>, or sign in from your meeting assistant or the notula CLI with this email and password.</p>`,
      ),
    );
  });

  return app;
}
