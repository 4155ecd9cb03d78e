// `notula login --web`: OAuth 2.0 in the browser (loopback redirect, PKCE S256, a
// public client registered on the fly). The tokens open the server's MCP endpoint.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CliError, EXIT } from "../exit.js";
import { saveKey } from "./credentials.js";
import { info } from "./output.js";
import { environment } from "../../config/environment.js";

export interface OAuthTokens {
  clientId: string;
  tokenEndpoint: string;
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
}

const LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

async function postForm(url: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, any>;
  if (!res.ok)
    throw new CliError(
      `The server refused the sign-in: ${body.error ?? res.status}${body.error_description ? ` (${body.error_description})` : ""}`,
      EXIT.auth,
    );
  return body;
}

export async function openBrowser(url: string) {
  const browser = environment().browser;
  if (browser) {
    const { spawn } = await import("node:child_process");
    spawn(browser, [url], { stdio: "ignore", detached: true }).unref();
    return;
  }
  try {
    const { default: open } = await import("open");
    await open(url);
  } catch {
    /* the URL is printed anyway */
  }
}

export async function webLogin(server: string): Promise<OAuthTokens> {
  const metaRes = await fetch(`${server}/.well-known/oauth-authorization-server`).catch(() => null);
  if (!metaRes?.ok) throw new CliError(`${server} does not offer browser sign-in; use an API key (--with-token).`);
  const meta = (await metaRes.json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
    registration_endpoint: string;
  };

  // The loopback server that receives the redirect.
  let resolveCode!: (v: { code?: string; state?: string; error?: string }) => void;
  const arrived = new Promise<{ code?: string; state?: string; error?: string }>((r) => (resolveCode = r));
  const callback = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    if (u.pathname !== "/callback") return void res.writeHead(404).end();
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end("<!doctype html><p>notula: signed in. You can close this tab.</p>");
    resolveCode({
      code: u.searchParams.get("code") ?? undefined,
      state: u.searchParams.get("state") ?? undefined,
      error: u.searchParams.get("error") ?? undefined,
    });
  });
  await new Promise<void>((r) => callback.listen(0, "127.0.0.1", r));
  const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  try {
    const reg = await fetch(meta.registration_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "notula CLI",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        scope: "read offline_access",
      }),
    });
    if (!reg.ok) throw new CliError(`Registering the CLI with ${server} failed (${reg.status}).`);
    const { client_id: clientId } = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(16).toString("base64url");
    const authorize = new URL(meta.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state,
      scope: "read offline_access",
      resource: `${server}/mcp`,
    }).toString();
    info(`Opening the browser to sign in. If it does not open, visit:\n${authorize}`);
    await openBrowser(authorize.toString());
    const timer = setTimeout(() => resolveCode({ error: "timeout" }), LOGIN_TIMEOUT_MS);
    const result = await arrived;
    clearTimeout(timer);
    if (result.error)
      throw new CliError(
        result.error === "timeout" ? "No sign-in within 5 minutes." : `Sign-in refused: ${result.error}.`,
        EXIT.auth,
      );
    if (result.state !== state || !result.code)
      throw new CliError("The browser returned an unexpected answer (state mismatch); try again.", EXIT.auth);
    const t = await postForm(meta.token_endpoint, {
      grant_type: "authorization_code",
      code: result.code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });
    const tokens: OAuthTokens = {
      clientId,
      tokenEndpoint: meta.token_endpoint,
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      expiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
    };
    return tokens;
  } finally {
    callback.close();
  }
}

/** Stores the tokens under a profile's OAuth account (see credential-for.ts). */
export async function saveOAuthTokens(account: string, tokens: OAuthTokens) {
  return saveKey(account, JSON.stringify(tokens));
}

/** A valid access token from stored tokens, refreshed (and the new refresh token kept under `account`) when it has expired. */
export async function oauthAccessToken(account: string, stored: string): Promise<string | null> {
  let tokens: OAuthTokens;
  try {
    tokens = JSON.parse(stored) as OAuthTokens;
  } catch {
    return null;
  }
  if (tokens.expiresAt - 60_000 > Date.now()) return tokens.accessToken;
  if (!tokens.refreshToken) return null;
  const t = await postForm(tokens.tokenEndpoint, {
    grant_type: "refresh_token",
    refresh_token: tokens.refreshToken,
    client_id: tokens.clientId,
  });
  const next: OAuthTokens = {
    ...tokens,
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? tokens.refreshToken,
    expiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
  };
  await saveOAuthTokens(account, next);
  return next.accessToken;
}

/**
 * Ends a browser sign-in on the server: its refresh token (and every rotation of it)
 * is revoked at the authorization server's revocation endpoint. Returns whether the
 * server confirmed; false when the tokens are unreadable or the server could not be reached.
 */
export async function revokeOAuthTokens(server: string, stored: string): Promise<boolean> {
  let tokens: OAuthTokens;
  try {
    tokens = JSON.parse(stored) as OAuthTokens;
  } catch {
    return false;
  }
  if (!tokens.refreshToken) return false;
  try {
    const meta = (await (await fetch(`${server}/.well-known/oauth-authorization-server`)).json()) as {
      revocation_endpoint?: string;
    };
    if (!meta.revocation_endpoint) return false;
    const res = await fetch(meta.revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: tokens.refreshToken,
        token_type_hint: "refresh_token",
        client_id: tokens.clientId,
      }),
    });
    return res.ok;
  } catch {
    return false;
  }
}
