// What every page knows about its request: the signed-in viewer (session, member,
// workspace) or nobody, and the checks every form passes.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { SCOPES, type Principal, type ScopeName } from "../core/principal.js";
import type { WebSessionRow } from "../db/repos/sessions.js";
import type { Services } from "../services/index.js";
import { sessionOf } from "../http/session-cookie.js";

export interface Viewer {
  session: WebSessionRow;
  principal: Principal;
  userId: string;
  name: string;
  email: string;
  role: "admin" | "member";
  workspace: { id: string; name: string };
  csrf: string;
  /** The zone the pages write times in (UTC until the person has one). */
  timeZone: string;
  /** The moment the page is made (the runtime's clock): what it says "today" and "yesterday" by. */
  now: number;
}

export interface WebEnv {
  Variables: { viewer: Viewer | null; requestId: string };
}

export type WebContext = Context<WebEnv>;

/** Every web response: a strict policy (our own scripts, styles and media only), never cached. */
export function pageHeaders(publicUrl: string): MiddlewareHandler<WebEnv> {
  const origin = new URL(publicUrl).origin;
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    // blob: only for the file a person picks to upload, measured in the page before it is sent.
    "media-src 'self' blob:",
    `connect-src 'self' ${origin}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  // Set before the handler, which may replace either: touching the finished response's
  // headers afterwards would cost @hono/node-server its fast path for every page.
  return async (c, next) => {
    c.header("Content-Security-Policy", csp);
    c.header("Cache-Control", "no-store");
    await next();
  };
}

/** Resolves the session cookie to a viewer (or null): the member, in the session's workspace. */
export function loadViewer(services: Services): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    c.set("viewer", await resolveViewer(services, await sessionOf(c, services.accounts)));
    await next();
  };
}

async function resolveViewer(services: Services, session: WebSessionRow | null): Promise<Viewer | null> {
  if (!session) return null;
  const member = await services.accounts.membership(session);
  if (!member) return null;
  return {
    session,
    principal: {
      workspaceId: member.workspaceId,
      userId: session.userId,
      // Not an API key: the web acts as the member, with every scope of the API.
      keyId: `web:${session.idHash.slice(0, 16)}`,
      scopes: ALL_SCOPES,
      plan: member.plan,
      role: member.role,
      hiddenFolders: member.hiddenFolderIds,
    },
    userId: session.userId,
    name: member.name,
    email: member.email,
    role: member.role,
    workspace: { id: member.workspaceId, name: member.workspaceName },
    csrf: session.csrf,
    timeZone: member.timeZone ?? "UTC",
    now: services.now(),
  };
}

const ALL_SCOPES: ReadonlySet<ScopeName> = new Set(SCOPES);

/** A safe place to go back to after signing in: a path on this site, never another origin. */
export function safeNext(next: string | undefined): string {
  return next && /^\/(?![/\\])[^\s]*$/.test(next) ? next : "/notes";
}

/** Pages for members only: anyone else goes to sign in, and comes back here after. */
export const requireViewer: MiddlewareHandler<WebEnv> = async (c, next) => {
  if (!c.get("viewer")) {
    const url = new URL(c.req.url);
    return c.redirect(`/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
  }
  await next();
};

export function viewerOf(c: WebContext): Viewer {
  const v = c.get("viewer");
  if (!v) throw new Error("requireViewer must run before this handler");
  return v;
}

const sameSecret = (a: string, b: string) =>
  a.length > 0 && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A signed-in form's token (field `csrf`, or header X-CSRF-Token for scripts) against the session's. */
export async function csrfOk(c: WebContext, form?: Record<string, unknown>): Promise<boolean> {
  const viewer = c.get("viewer");
  if (!viewer) return false;
  const given = c.req.header("x-csrf-token") ?? (form ? form.csrf : undefined);
  return typeof given === "string" && sameSecret(viewer.csrf, given);
}

// Forms shown before sign-in (sign-in, password links) have no session: their token is
// a random value in a SameSite=Strict cookie that the form must repeat.
const PRE_CSRF_COOKIE = "notula_form";

export function preSessionToken(c: Context): string {
  const existing = getCookie(c, PRE_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{24}$/.test(existing)) return existing;
  const token = randomBytes(18).toString("base64url");
  setCookie(c, PRE_CSRF_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
  return token;
}

export function preSessionOk(c: Context, given: unknown): boolean {
  const cookie = getCookie(c, PRE_CSRF_COOKIE) ?? "";
  return typeof given === "string" && sameSecret(cookie, given);
}
