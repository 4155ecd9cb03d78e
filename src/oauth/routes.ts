// The OAuth endpoints of /mcp, their discovery documents, and the sign-in pages.
import { Hono, type Context } from "hono";
import { setCookie } from "hono/cookie";
import type { Logger } from "../core/logger.js";
import { RateLimitError } from "../core/errors.js";
import type { AccountService } from "../services/accounts.js";
import { clientAddress, SESSION_COOKIE, sessionCookieOptions, sessionOf } from "../http/session-cookie.js";
import { OAuthError } from "../services/oauth/errors.js";
import { consentPage, errorPage, signInPage, workspacePage } from "./pages.js";
import { SCOPES_SUPPORTED, type OAuthService } from "../services/oauth/service.js";
import { REGISTRATION_LIMITS } from "../services/oauth/client-metadata.js";
import type { UpstreamOidc, UpstreamReturn } from "../services/oauth/upstream.js";

const CSRF_MESSAGE = "The form has expired or was not sent by this page; start again.";

function pageHeaders(c: Context) {
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
  );
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Frame-Options", "DENY");
  c.header("Cache-Control", "no-store");
}

function basicAuth(header: string | undefined): { id: string; secret: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? "");
  if (!m) return null;
  const [id, ...rest] = Buffer.from(m[1], "base64").toString("utf8").split(":");
  return { id: decodeURIComponent(id), secret: decodeURIComponent(rest.join(":")) };
}

/** The token and revocation endpoints take form-encoded bodies only (RFC 6749 §3.2, RFC 7009 §2.1). */
async function formBody(c: Context): Promise<Record<string, string> | null> {
  if (!(c.req.header("content-type") ?? "").includes("application/x-www-form-urlencoded")) return null;
  return Object.fromEntries(new URLSearchParams(await c.req.text()));
}

const notAForm = (c: Context) =>
  c.json({ error: "invalid_request", error_description: "Send the form as application/x-www-form-urlencoded." }, 400);

export function oauthRoutes(
  oauth: OAuthService,
  accounts: AccountService,
  publicUrl: string,
  logger: Logger,
  upstream?: UpstreamOidc,
) {
  const app = new Hono();
  const issuer = () => publicUrl;
  const resource = () => `${publicUrl}/mcp`;
  const log = logger.child({ component: "oauth" });
  const sessionCookie = (c: Context, sessionId: string) =>
    setCookie(c, SESSION_COOKIE, sessionId, sessionCookieOptions(publicUrl));

  const asMetadata = (c: Context) =>
    c.json({
      issuer: issuer(),
      authorization_endpoint: `${issuer()}/mcp/oauth/authorize`,
      token_endpoint: `${issuer()}/mcp/oauth/token`,
      revocation_endpoint: `${issuer()}/mcp/oauth/revoke`,
      registration_endpoint: `${issuer()}/mcp/oauth/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic", "none"],
      scopes_supported: SCOPES_SUPPORTED,
    });
  const prMetadata = (c: Context) =>
    c.json({
      resource: resource(),
      authorization_servers: [issuer()],
      scopes_supported: SCOPES_SUPPORTED,
      bearer_methods_supported: ["header"],
      resource_name: "notula MCP",
    });
  app.get("/.well-known/oauth-authorization-server", asMetadata);
  app.get("/mcp/.well-known/oauth-authorization-server", asMetadata);
  app.get("/.well-known/oauth-protected-resource", prMetadata);
  app.get("/.well-known/oauth-protected-resource/mcp", prMetadata);
  app.get("/mcp/.well-known/oauth-protected-resource", prMetadata);

  /** The one mapping of errors on the JSON endpoints: an OAuthError renders itself; anything else is logged and a server_error. */
  const oauthError = (c: Context, err: unknown) => {
    if (err instanceof OAuthError) {
      if (err.status === 401) c.header("WWW-Authenticate", 'Basic realm="notula"');
      return c.json(err.body(), err.status as 400 | 401);
    }
    log.error({ err, route: c.req.routePath }, "unexpected error");
    return c.json({ error: "server_error", error_description: "An internal error occurred." }, 500);
  };

  app.post("/mcp/oauth/register", async (c) => {
    let body: Record<string, unknown>;
    try {
      // Read as text first: a body over the metadata bound is refused before it is parsed.
      const text = await c.req.text();
      if (Buffer.byteLength(text) > REGISTRATION_LIMITS.metadataBytes)
        return c.json(
          {
            error: "invalid_client_metadata",
            error_description: `The client metadata may take at most ${REGISTRATION_LIMITS.metadataBytes / 1024} KB.`,
          },
          400,
        );
      body = JSON.parse(text);
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
    } catch {
      return c.json({ error: "invalid_client_metadata", error_description: "The body must be JSON." }, 400);
    }
    try {
      c.header("Cache-Control", "no-store");
      return c.json(await oauth.register(body ?? {}), 201);
    } catch (err) {
      return oauthError(c, err);
    }
  });

  app.get("/mcp/oauth/authorize", async (c) => {
    pageHeaders(c);
    try {
      const r = await oauth.authorize(c.req.query());
      return "redirect" in r ? c.redirect(r.redirect, 302) : c.redirect(`/oauth/sign-in?request=${r.requestId}`, 302);
    } catch (err) {
      if (err instanceof OAuthError) return c.html(errorPage(err.description), 400);
      throw err;
    }
  });

  app.post("/mcp/oauth/token", async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    const form = await formBody(c);
    if (!form) return notAForm(c);
    try {
      return c.json(await oauth.token(form, basicAuth(c.req.header("authorization"))));
    } catch (err) {
      return oauthError(c, err);
    }
  });

  app.post("/mcp/oauth/revoke", async (c) => {
    c.header("Cache-Control", "no-store");
    const form = await formBody(c);
    if (!form) return notAForm(c);
    try {
      await oauth.revoke(form, basicAuth(c.req.header("authorization")));
      return c.body(null, 200);
    } catch (err) {
      return oauthError(c, err);
    }
  });

  // The pages. Every POST re-checks the request kept server-side and its CSRF token.
  const withRequest = async (c: Context, id: string | undefined) => {
    const p = await oauth.pending(id);
    if (!p) {
      pageHeaders(c);
      return { response: c.html(errorPage("This sign-in request has expired or does not exist."), 400) };
    }
    return { pending: p };
  };

  app.get("/oauth/sign-in", async (c) => {
    const r = await withRequest(c, c.req.query("request"));
    if (r.response) return r.response;
    pageHeaders(c);
    if ((await sessionOf(c, accounts))?.userId ?? null)
      return c.redirect(`/oauth/workspace?request=${r.pending.request.id}`, 302);
    return c.html(
      signInPage({
        requestId: r.pending.request.id,
        csrf: r.pending.request.csrf,
        clientName: r.pending.client.name,
        upstreamName: upstream?.name,
      }),
    );
  });

  app.get("/oauth/upstream/start", async (c) => {
    const r = await withRequest(c, c.req.query("request"));
    if (r.response) return r.response;
    pageHeaders(c);
    if (!upstream) return c.html(errorPage("No single sign-on provider is configured."), 404);
    try {
      return c.redirect(await upstream.start({ kind: "oauth", requestId: r.pending.request.id }), 302);
    } catch (err) {
      return c.html(errorPage(`The sign-on provider cannot be reached: ${(err as Error).message}`), 502);
    }
  });

  app.get("/oauth/upstream/callback", async (c) => {
    pageHeaders(c);
    if (!upstream) return c.html(errorPage("No single sign-on provider is configured."), 404);
    let result: { back: UpstreamReturn; email: string; name: string };
    try {
      result = await upstream.finish(new URL(c.req.url));
    } catch (err) {
      return c.html(errorPage(`Single sign-on failed: ${(err as Error).message}`), 400);
    }
    const signed = await accounts.signInVerified(result, c.req.header("user-agent") ?? "");
    if (!signed)
      return c.html(
        errorPage(
          `There is no notula account for ${result.email}, and no workspace admits its domain; ask for an invite.`,
        ),
        403,
      );
    sessionCookie(c, signed.sessionId);
    // The web app's own sign-in and an MCP authorization share this callback, the one
    // redirect URI registered with the provider.
    if (result.back.kind === "web") return c.redirect(result.back.next, 302);
    return c.redirect(`/oauth/workspace?request=${result.back.requestId}`, 302);
  });

  app.post("/oauth/sign-in", async (c) => {
    const f = await c.req.parseBody();
    const r = await withRequest(c, String(f.request ?? ""));
    if (r.response) return r.response;
    pageHeaders(c);
    if (!oauth.csrfMatches(r.pending.request.csrf, f.csrf)) return c.html(errorPage(CSRF_MESSAGE), 400);
    const again = (error: string, status: 401 | 429) =>
      c.html(
        signInPage({
          requestId: r.pending.request.id,
          csrf: r.pending.request.csrf,
          clientName: r.pending.client.name,
          error,
          email: String(f.email ?? ""),
        }),
        status,
      );
    let signed;
    try {
      signed = await accounts.signIn({
        email: String(f.email ?? ""),
        password: String(f.password ?? ""),
        address: clientAddress(c),
        userAgent: c.req.header("user-agent") ?? "",
      });
    } catch (err) {
      if (err instanceof RateLimitError)
        return again(`Too many sign-in attempts; try again in ${Math.ceil(err.retryAfterSec / 60)} minutes.`, 429);
      throw err;
    }
    if (!signed) return again("Wrong email or password.", 401);
    sessionCookie(c, signed.sessionId);
    return c.redirect(`/oauth/workspace?request=${r.pending.request.id}`, 303);
  });

  app.get("/oauth/workspace", async (c) => {
    const r = await withRequest(c, c.req.query("request"));
    if (r.response) return r.response;
    pageHeaders(c);
    const userId = (await sessionOf(c, accounts))?.userId ?? null;
    if (!userId) return c.redirect(`/oauth/sign-in?request=${r.pending.request.id}`, 302);
    const workspaces = await oauth.workspacesOf(userId);
    if (workspaces.length === 0) return c.html(errorPage("Your account belongs to no workspace."), 403);
    if (workspaces.length === 1) {
      await oauth.chooseWorkspace(r.pending.request.id, userId, workspaces[0].id);
      return c.redirect(`/oauth/consent?request=${r.pending.request.id}`, 302);
    }
    return c.html(workspacePage({ requestId: r.pending.request.id, csrf: r.pending.request.csrf, workspaces }));
  });

  app.post("/oauth/workspace", async (c) => {
    const f = await c.req.parseBody();
    const r = await withRequest(c, String(f.request ?? ""));
    if (r.response) return r.response;
    pageHeaders(c);
    const userId = (await sessionOf(c, accounts))?.userId ?? null;
    if (!userId) return c.redirect(`/oauth/sign-in?request=${r.pending.request.id}`, 303);
    if (!oauth.csrfMatches(r.pending.request.csrf, f.csrf)) return c.html(errorPage(CSRF_MESSAGE), 400);
    if (!(await oauth.chooseWorkspace(r.pending.request.id, userId, String(f.workspace ?? ""))))
      return c.html(errorPage("Choose one of your workspaces."), 400);
    return c.redirect(`/oauth/consent?request=${r.pending.request.id}`, 303);
  });

  app.get("/oauth/consent", async (c) => {
    const r = await withRequest(c, c.req.query("request"));
    if (r.response) return r.response;
    pageHeaders(c);
    const userId = (await sessionOf(c, accounts))?.userId ?? null;
    const { request, client } = r.pending;
    if (!userId || request.userId !== userId || !request.workspaceId)
      return c.redirect(`/oauth/sign-in?request=${request.id}`, 302);
    const workspaceName = (await oauth.workspaceName(request.workspaceId)) ?? request.workspaceId;
    return c.html(
      consentPage({
        requestId: request.id,
        csrf: request.csrf,
        clientName: client.name,
        redirectHost: new URL(request.redirectUri).host,
        workspaceName,
        scope: request.scope,
      }),
    );
  });

  app.post("/oauth/consent", async (c) => {
    const f = await c.req.parseBody();
    const r = await withRequest(c, String(f.request ?? ""));
    if (r.response) return r.response;
    pageHeaders(c);
    const userId = (await sessionOf(c, accounts))?.userId ?? null;
    const { request } = r.pending;
    if (!oauth.csrfMatches(request.csrf, f.csrf)) return c.html(errorPage(CSRF_MESSAGE), 400);
    if (!userId || request.userId !== userId || !request.workspaceId) return c.html(errorPage("Sign in first."), 400);
    if (f.decision !== "allow") return c.redirect(await oauth.deny(request.id), 303);
    return c.redirect(await oauth.approve(request.id, userId, request.workspaceId), 303);
  });

  return app;
}
