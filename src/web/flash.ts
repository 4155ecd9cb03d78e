// What a form's POST has to say (a new key shown once, "Revoked.") survives the redirect
// that follows it (post/redirect/get: a reload never submits the form again). It is kept
// in the database, sealed and for a minute, under a random handle in a cookie, bound to
// the person who submitted the form, and shown once.
import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Services } from "../services/index.js";
import { viewerOf, type WebContext } from "./context.js";

const FLASH_COOKIE = "notula_flash";
const FLASH_TTL_MS = 60_000;

/** What a page shows once after a form: a message, or a secret to copy now. */
export type Flash = {
  notice?: string;
  /** A failure to report after the redirect (a test mail that did not go). */
  error?: string;
  created?: { key: string; name: string };
  secret?: { url: string; value: string };
  link?: { label: string; url: string };
};

export function createFlash(services: Pick<Services, "pending">, publicUrl: string) {
  const secure = publicUrl.startsWith("https:");
  /** Keeps `flash` for `userId`'s next page and redirects there (303: the browser then GETs it). */
  async function keep(c: Context, userId: string, to: string, flash: Flash): Promise<Response> {
    const handle = randomBytes(24).toString("base64url");
    await services.pending.put("flash", handle, { userId, flash }, FLASH_TTL_MS);
    setCookie(c, FLASH_COOKIE, handle, {
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
      secure,
      maxAge: FLASH_TTL_MS / 1000,
    });
    return c.redirect(to, 303);
  }

  return {
    /** For the signed-in viewer who submitted the form. */
    redirect: (c: WebContext, to: string, flash: Flash) => keep(c, viewerOf(c).userId, to, flash),
    /** For someone the form itself has just signed in (an invite accepted). */
    redirectSignedIn: keep,

    /** The flash left for this page, once (an empty object when there is none). */
    async take(c: WebContext): Promise<Flash> {
      const handle = getCookie(c, FLASH_COOKIE);
      if (!handle) return {};
      deleteCookie(c, FLASH_COOKIE, { path: "/", secure });
      const kept = await services.pending.take<{ userId: string; flash: Flash }>("flash", handle);
      // Another person's handle (a shared computer) shows nothing.
      return kept && kept.userId === viewerOf(c).userId ? kept.flash : {};
    },
  };
}
