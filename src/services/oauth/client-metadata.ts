// What a client may register (RFC 7591 metadata) and where it may be sent back to:
// the rules of dynamic client registration, apart from the tokens it then gets.
import { invalidClientMetadata, invalidRedirectUri } from "./errors.js";

/** What one registration may hold (RFC 7591 sets no bounds; an open endpoint needs them). */
export const REGISTRATION_LIMITS = {
  redirectUris: 10,
  uriChars: 2000,
  nameChars: 200,
  metadataBytes: 16 * 1024,
} as const;

function isLoopback(u: URL) {
  return u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);
}

/** A private-use scheme of a native app (RFC 8252 §7.1): a reverse domain name, such as com.example.app. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * Why a redirect URI may not be registered, or null when it may: https, loopback
 * http (RFC 8252 §7.3) or a private-use scheme, never with a user name or password
 * (which turns `http://evil.example@127.0.0.1/` into a look-alike) or a fragment.
 */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length > REGISTRATION_LIMITS.uriChars)
    return `a redirect URI may have at most ${REGISTRATION_LIMITS.uriChars} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not a URL.`;
  }
  if (url.username || url.password) return `${raw} must not carry a user name or password.`;
  if (url.hash || raw.includes("#")) return `${raw} must not have a fragment.`;
  if (url.protocol === "https:") return url.hostname ? null : `${raw} has no host.`;
  if (url.protocol === "http:")
    return isLoopback(url)
      ? null
      : `${raw}: plain http is allowed for loopback addresses only (127.0.0.1, [::1], localhost).`;
  if (PRIVATE_USE_SCHEME.test(url.protocol)) return null;
  return `${raw}: the scheme ${url.protocol} is not allowed; use https, loopback http or a reverse-domain scheme such as com.example.app:/callback.`;
}

/**
 * Exactly as registered; for a loopback redirect, any port (RFC 8252 §7.3), but the
 * same host, path and query, and never a user name, password or fragment.
 */
export function redirectMatches(registered: string, given: string): boolean {
  if (redirectUriProblem(given) !== null) return false;
  if (registered === given) return true;
  try {
    const r = new URL(registered);
    const g = new URL(given);
    return (
      isLoopback(r) && isLoopback(g) && r.hostname === g.hostname && r.pathname === g.pathname && r.search === g.search
    );
  } catch {
    return false;
  }
}

/** A registration's metadata, checked: every rule above, or the RFC 7591 error that breaks it. */
export function clientMetadata(body: Record<string, unknown>) {
  if (Buffer.byteLength(JSON.stringify(body)) > REGISTRATION_LIMITS.metadataBytes)
    throw invalidClientMetadata(`The client metadata may take at most ${REGISTRATION_LIMITS.metadataBytes / 1024} KB.`);
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === "string"))
    throw invalidRedirectUri("redirect_uris must be a non-empty array of URLs.");
  if (uris.length > REGISTRATION_LIMITS.redirectUris)
    throw invalidRedirectUri(`A client may register at most ${REGISTRATION_LIMITS.redirectUris} redirect URIs.`);
  for (const u of uris as string[]) {
    const problem = redirectUriProblem(u);
    if (problem) throw invalidRedirectUri(problem);
  }
  if (
    body.client_name !== undefined &&
    (typeof body.client_name !== "string" || body.client_name.length > REGISTRATION_LIMITS.nameChars)
  )
    throw invalidClientMetadata(`client_name must be text of at most ${REGISTRATION_LIMITS.nameChars} characters.`);
  const method = (body.token_endpoint_auth_method as string | undefined) ?? "client_secret_basic";
  if (!["client_secret_post", "client_secret_basic", "none"].includes(method))
    throw invalidClientMetadata(`token_endpoint_auth_method must be client_secret_post, client_secret_basic or none.`);
  const grants = (body.grant_types as string[] | undefined) ?? ["authorization_code", "refresh_token"];
  if (!Array.isArray(grants) || grants.some((g) => !["authorization_code", "refresh_token"].includes(g)))
    throw invalidClientMetadata("grant_types may hold authorization_code and refresh_token.");
  const responseTypes = (body.response_types as string[] | undefined) ?? ["code"];
  if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== "code"))
    throw invalidClientMetadata('response_types must be ["code"].');
  const name =
    typeof body.client_name === "string" && body.client_name.trim() ? body.client_name.trim() : "Unnamed client";
  return { uris: uris as string[], name, method, grants, responseTypes };
}
