// A server address as people type it: "127.0.0.1:8787" (loopback: http:// is meant),
// "https://notes.example.com/", or the API's base ".../v1" copied from the docs. Anything
// else without a scheme is refused with the fix, before anything connects.
import { CliError, EXIT } from "../exit.js";

/** An address without its trailing slashes: how profiles are compared. */
export const trimmed = (url: string) => url.replace(/\/+$/, "");

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?(\/|$)/i;

/** The server's base address, or a usage error naming `from` (the flag or variable it came from). */
export function serverUrl(raw: string, from: string): string {
  let text = raw.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (!LOOPBACK.test(text))
      throw new CliError(
        `${from}: "${raw}" has no scheme; write https://${text.replace(/^\/+/, "")} (or http:// for a server without TLS).`,
        EXIT.usage,
      );
    text = `http://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`${from}: "${raw}" is not a URL; write it as https://notes.example.com.`, EXIT.usage);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`${from}: "${raw}" must be an http:// or https:// address.`, EXIT.usage);
  if (url.search || url.hash)
    throw new CliError(`${from}: "${raw}" should be the server's address alone, without ? or #.`, EXIT.usage);
  // The API's base (".../v1"), as the docs show it, is the server's address plus /v1.
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${url.origin}${path}`;
}
