// The browser session cookie, shared by the web app and the OAuth pages.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { getConnInfo } from "@hono/node-server/conninfo";

export const SESSION_COOKIE = "notula_session";

/** HttpOnly and SameSite=Lax always; Secure when the public URL is https. */
export function sessionCookieOptions(publicUrl: string) {
  return {
    httpOnly: true,
    sameSite: "Lax" as const,
    path: "/",
    secure: publicUrl.startsWith("https:"),
    maxAge: 14 * 24 * 3600,
  };
}

/** The peer's address (not a forwarded header, which anyone can set). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * The browser session a request carries, or null: the one place that reads the
 * session cookie (the web app's viewer and the OAuth pages both ask here).
 */
export async function sessionOf<S>(
  c: Context,
  accounts: { session(id: string | undefined): Promise<S | null> },
): Promise<S | null> {
  return accounts.session(getCookie(c, SESSION_COOKIE));
}
