// Signing in and out, and the one-time password links (first admin's setup, resets).
import { Hono, type Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { RateLimitError } from "../../core/errors.js";
import { AppError } from "../../core/errors.js";
import type { Services } from "../../services/index.js";
import { clientAddress, SESSION_COOKIE, sessionCookieOptions } from "../../http/session-cookie.js";
import { csrfOk, preSessionOk, preSessionToken, safeNext, type WebEnv } from "../context.js";
import { ForgotPasswordPage, MessagePage, PasswordLinkPage, SignInPage } from "../pages/sign-in.js";
import { render } from "../render.js";
import type { UpstreamOidc } from "../../services/oauth/upstream.js";

/** A password link that has expired or been used. */
const linkNotValid = (c: Context) =>
  render(
    c,
    <MessagePage
      title="Link not valid"
      message="This link has expired or has been used. Ask an admin for a new one."
    />,
    404,
  );

export function authPages(services: Services, opts: { publicUrl: string; upstream?: UpstreamOidc }) {
  const app = new Hono<WebEnv>();
  const cookie = sessionCookieOptions(opts.publicUrl);
  const field = (f: Record<string, unknown>, k: string) => (typeof f[k] === "string" ? (f[k] as string) : "");

  app.get("/sign-in", async (c) => {
    const next = safeNext(c.req.query("next"));
    if (c.get("viewer")) return c.redirect(next, 303);
    return render(
      c,
      <SignInPage
        csrf={preSessionToken(c)}
        next={next}
        upstreamName={opts.upstream?.name}
        notice={c.req.query("notice") === "signed-out" ? "You are signed out." : undefined}
      />,
    );
  });

  app.get("/forgot-password", async (c) =>
    render(c, <ForgotPasswordPage csrf={preSessionToken(c)} available={await services.passwordReset.available()} />),
  );
  app.post("/forgot-password", async (c) => {
    const f = await c.req.parseBody();
    const available = await services.passwordReset.available();
    const page = (o: { sent?: boolean; error?: string }, status?: 403 | 429) =>
      render(c, <ForgotPasswordPage csrf={preSessionToken(c)} available={available} {...o} />, status);
    if (!preSessionOk(c, f.csrf)) return page({ error: "The form had expired; please try again." }, 403);
    try {
      await services.passwordReset.request(field(f, "email"), clientAddress(c));
    } catch (err) {
      if (!(err instanceof RateLimitError)) throw err;
      return page({ error: `Too many requests; try again in ${Math.ceil(err.retryAfterSec / 60)} min.` }, 429);
    }
    return page({ sent: true });
  });

  // Single sign-on: the provider's callback (shared with the MCP sign-in) sets the
  // session and returns to `next`.
  app.get("/sign-in/upstream", async (c) => {
    const next = safeNext(c.req.query("next"));
    if (!opts.upstream)
      return render(c, <MessagePage title="Not found" message="No single sign-on provider is configured." />, 404);
    try {
      return c.redirect(await opts.upstream.start({ kind: "web", next }), 302);
    } catch (err) {
      return render(
        c,
        <MessagePage
          title="Sign-on unavailable"
          message={`${opts.upstream.name} cannot be reached: ${(err as Error).message}`}
        />,
        502,
      );
    }
  });

  app.post("/sign-in", async (c) => {
    const f = await c.req.parseBody();
    const next = safeNext(field(f, "next"));
    const again = (error: string, status: 400 | 401 | 403 | 429) =>
      render(
        c,
        <SignInPage
          csrf={preSessionToken(c)}
          next={next}
          email={field(f, "email")}
          error={error}
          upstreamName={opts.upstream?.name}
        />,
        status,
      );
    if (!preSessionOk(c, f.csrf)) return again("The form had expired; please sign in again.", 403);
    let signed;
    try {
      signed = await services.accounts.signIn({
        email: field(f, "email"),
        password: field(f, "password"),
        address: clientAddress(c),
        userAgent: c.req.header("user-agent") ?? "",
        timeZone: field(f, "timeZone"),
      });
    } catch (err) {
      if (err instanceof RateLimitError)
        return again(`Too many sign-in attempts. Try again in ${Math.ceil(err.retryAfterSec / 60)} minutes.`, 429);
      throw err;
    }
    // One message whether the email is unknown or the password wrong.
    if (!signed) return again("Wrong email or password.", 401);
    setCookie(c, SESSION_COOKIE, signed.sessionId, cookie);
    return c.redirect(next, 303);
  });

  app.post("/sign-out", async (c) => {
    const viewer = c.get("viewer");
    if (viewer && (await csrfOk(c, await c.req.parseBody()))) await services.accounts.signOut(viewer.session);
    else if (viewer)
      return render(
        c,
        <MessagePage
          title="Cannot sign out"
          message="The form had expired; reload the page and try again."
          viewer={viewer}
        />,
        403,
      );
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/sign-in?notice=signed-out", 303);
  });

  app.get("/account/password/:token", async (c) => {
    const link = await services.accounts.linkUser(c.req.param("token"));
    if (!link) return linkNotValid(c);
    return render(
      c,
      <PasswordLinkPage
        token={c.req.param("token")}
        csrf={preSessionToken(c)}
        email={link.email}
        purpose={link.purpose}
      />,
    );
  });

  app.post("/account/password/:token", async (c) => {
    const token = c.req.param("token");
    const link = await services.accounts.linkUser(token);
    if (!link) return linkNotValid(c);
    const f = await c.req.parseBody();
    const again = (error: string, status: 400 | 403) =>
      render(
        c,
        <PasswordLinkPage
          token={token}
          csrf={preSessionToken(c)}
          email={link.email}
          purpose={link.purpose}
          error={error}
        />,
        status,
      );
    if (!preSessionOk(c, f.csrf)) return again("The form had expired; please try again.", 403);
    if (field(f, "password") !== field(f, "confirm")) return again("The two passwords differ.", 400);
    try {
      const signed = await services.accounts.usePasswordLink(
        token,
        field(f, "password"),
        c.req.header("user-agent") ?? "",
        field(f, "timeZone"),
      );
      setCookie(c, SESSION_COOKIE, signed.sessionId, cookie);
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return again(err.message, 400);
      throw err;
    }
    return c.redirect("/notes", 303);
  });

  return app;
}
