// Attacks on the authorization server: every one is refused with the RFC error.
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveInBrowser } from "../helpers/browser-flow.js";
import { client as httpClient } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
const EMAIL = "sec@example.com";
const PASSWORD = "a long enough password";
const REDIRECT = "http://127.0.0.1:50000/cb";

interface Registered {
  client_id: string;
  client_secret?: string;
}

async function register(extra: Record<string, unknown> = {}): Promise<Registered> {
  const r = await fetch(`${server.url}/mcp/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Sec",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
      ...extra,
    }),
  });
  expect(r.status).toBe(201);
  return r.json() as any;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(c: Registered, params: Record<string, string>) {
  const u = new URL(`${server.url}/mcp/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: c.client_id,
    redirect_uri: REDIRECT,
    state: "xyz",
    ...params,
  }))
    if (v !== "") u.searchParams.set(k, v);
  return u.toString();
}

async function code(c: Registered, challenge: string, extra: Record<string, string> = {}) {
  const back = await approveInBrowser(
    authorizeUrl(c, { code_challenge: challenge, code_challenge_method: "S256", ...extra }),
    { email: EMAIL, password: PASSWORD },
  );
  expect(back.searchParams.get("state")).toBe("xyz");
  return back.searchParams.get("code")!;
}

const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/mcp/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  const ws = (await httpClient(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
  await admin(
    server.dataDir,
    ["users", "create", "--workspace", ws, "--email", EMAIL, "--name", "Sec", "--password-stdin"],
    PASSWORD,
  );
});
afterAll(() => server?.stop());

describe("authorization code and PKCE", () => {
  it("a code works once; a replay is invalid_grant", async () => {
    const c = await register();
    const p = pkce();
    const cd = await code(c, p.challenge);
    const form = {
      grant_type: "authorization_code",
      code: cd,
      redirect_uri: REDIRECT,
      client_id: c.client_id,
      client_secret: c.client_secret!,
      code_verifier: p.verifier,
    };
    expect((await token(form)).status).toBe(200);
    const replay = await token(form);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as any).error).toBe("invalid_grant");
  });

  it("a wrong or missing verifier, or another redirect_uri, is refused", async () => {
    const c = await register();
    const p = pkce();
    const base = {
      grant_type: "authorization_code",
      redirect_uri: REDIRECT,
      client_id: c.client_id,
      client_secret: c.client_secret!,
    };
    const wrong = await token({ ...base, code: await code(c, p.challenge), code_verifier: pkce().verifier });
    expect(((await wrong.json()) as any).error).toBe("invalid_grant");
    const missing = await token({ ...base, code: await code(c, p.challenge) });
    expect(((await missing.json()) as any).error).toBe("invalid_request");
    const otherRedirect = await token({
      ...base,
      redirect_uri: "http://127.0.0.1:50000/other",
      code: await code(c, p.challenge),
      code_verifier: p.verifier,
    });
    expect(((await otherRedirect.json()) as any).error).toBe("invalid_grant");
  });

  it("authorize requires S256 PKCE and a registered redirect URI", async () => {
    const c = await register();
    const noPkce = await fetch(authorizeUrl(c, {}), { redirect: "manual" });
    expect(new URL(noPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
    const plain = await fetch(authorizeUrl(c, { code_challenge: pkce().challenge, code_challenge_method: "plain" }), {
      redirect: "manual",
    });
    expect(new URL(plain.headers.get("location")!).searchParams.get("error_description")).toMatch(/S256/);
    // An unregistered redirect URI is never redirected to: an error page instead.
    const evil = await fetch(
      authorizeUrl(c, {
        redirect_uri: "https://evil.example/cb",
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      }),
      { redirect: "manual" },
    );
    expect(evil.status).toBe(400);
    expect(evil.headers.get("location")).toBeNull();
    expect(evil.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(evil.headers.get("referrer-policy")).toBe("no-referrer");
    // Loopback redirect URIs match on any port (RFC 8252).
    const otherPort = await fetch(
      authorizeUrl(c, {
        redirect_uri: "http://127.0.0.1:61234/cb",
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      }),
      { redirect: "manual" },
    );
    expect(otherPort.headers.get("location")).toMatch(/^\/oauth\/sign-in\?request=/);
    const badScope = await fetch(
      authorizeUrl(c, { scope: "admin", code_challenge: pkce().challenge, code_challenge_method: "S256" }),
      { redirect: "manual" },
    );
    expect(new URL(badScope.headers.get("location")!).searchParams.get("error")).toBe("invalid_scope");
  });

  it("a tampered consent form (CSRF token) is refused", async () => {
    const c = await register();
    await expect(
      approveInBrowser(authorizeUrl(c, { code_challenge: pkce().challenge, code_challenge_method: "S256" }), {
        email: EMAIL,
        password: PASSWORD,
        tamperConsent: (f) => f.set("csrf", "forged"),
      }),
    ).rejects.toThrow(/answered 400/);
  });

  it("a code cannot be redeemed by another client, nor with a wrong secret", async () => {
    const a = await register();
    const b = await register();
    const p = pkce();
    const cd = await code(a, p.challenge);
    const stolen = await token({
      grant_type: "authorization_code",
      code: cd,
      redirect_uri: REDIRECT,
      client_id: b.client_id,
      client_secret: b.client_secret!,
      code_verifier: p.verifier,
    });
    expect(((await stolen.json()) as any).error).toBe("invalid_grant");
    const badSecret = await token({
      grant_type: "authorization_code",
      code: cd,
      redirect_uri: REDIRECT,
      client_id: a.client_id,
      client_secret: "nope",
      code_verifier: p.verifier,
    });
    expect(badSecret.status).toBe(401);
    expect(((await badSecret.json()) as any).error).toBe("invalid_client");
  });

  it("public clients (none) and client_secret_basic clients both work", async () => {
    const pub = await register({ token_endpoint_auth_method: "none" });
    expect(pub.client_secret).toBeUndefined();
    const p1 = pkce();
    const r1 = await token({
      grant_type: "authorization_code",
      code: await code(pub, p1.challenge),
      redirect_uri: REDIRECT,
      client_id: pub.client_id,
      code_verifier: p1.verifier,
    });
    expect(r1.status).toBe(200);
    const basic = await register({ token_endpoint_auth_method: "client_secret_basic" });
    const p2 = pkce();
    const auth = `Basic ${Buffer.from(`${basic.client_id}:${basic.client_secret}`).toString("base64")}`;
    const r2 = await token(
      {
        grant_type: "authorization_code",
        code: await code(basic, p2.challenge),
        redirect_uri: REDIRECT,
        code_verifier: p2.verifier,
      },
      { authorization: auth },
    );
    expect(r2.status).toBe(200);
  });
});

describe("access tokens on /mcp", () => {
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  });
  const post = (bearer: string) =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      body: init,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${bearer}`,
      },
    });

  it("a token for another audience, a forged one or an expired one is 401 with resource metadata", async () => {
    const c = await register();
    const p = pkce();
    const t = (await (
      await token({
        grant_type: "authorization_code",
        code: await code(c, p.challenge),
        redirect_uri: REDIRECT,
        client_id: c.client_id,
        client_secret: c.client_secret!,
        code_verifier: p.verifier,
      })
    ).json()) as any;
    expect((await post(t.access_token)).status).toBe(200);
    const forged = await new SignJWT({ client_id: c.client_id, scope: "read", ws: "ws_x" })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
      .setIssuer(server.url)
      .setAudience(`${server.url}/mcp`)
      .setSubject("usr_x")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not the server's key, not the server's key"));
    const r = await post(forged);
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    // Signed with the server's own key (derived as the server derives it), but expired or for another audience.
    const master = Buffer.from(fs.readFileSync(`${server.dataDir}/secret.key`, "utf8").trim(), "base64");
    const key = new Uint8Array(hkdfSync("sha256", master, Buffer.alloc(0), "notula oauth access tokens", 32));
    const claims0 = JSON.parse(Buffer.from(t.access_token.split(".")[1], "base64url").toString());
    const sign = (aud: string, exp: number) =>
      new SignJWT({ client_id: claims0.client_id, scope: claims0.scope, ws: claims0.ws })
        .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
        .setIssuer(server.url)
        .setAudience(aud)
        .setSubject(claims0.sub)
        .setIssuedAt(exp - 3600)
        .setExpirationTime(exp)
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    expect((await post(await sign(`${server.url}/mcp`, now + 600))).status).toBe(200);
    expect((await post(await sign(`${server.url}/mcp`, now - 5))).status).toBe(401);
    expect((await post(await sign("https://other.example/mcp", now + 600))).status).toBe(401);
    // Tampering with a real token breaks its signature.
    const [h, payload, sig] = t.access_token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    for (const change of [{ aud: "https://other.example/mcp" }, { exp: Math.floor(Date.now() / 1000) - 10 }]) {
      const altered = Buffer.from(JSON.stringify({ ...claims, ...change })).toString("base64url");
      expect((await post(`${h}.${altered}.${sig}`)).status).toBe(401);
    }
  });

  it("a token without the read scope is 403 insufficient_scope", async () => {
    const c = await register({ scope: "read openid" });
    const p = pkce();
    const cd = await code(c, p.challenge, { scope: "openid" });
    const t = (await (
      await token({
        grant_type: "authorization_code",
        code: cd,
        redirect_uri: REDIRECT,
        client_id: c.client_id,
        client_secret: c.client_secret!,
        code_verifier: p.verifier,
      })
    ).json()) as any;
    expect(t.scope).toBe("openid");
    const r = await post(t.access_token);
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="read"/);
  });

  it("discovery documents are served at every path", async () => {
    for (const p of ["/.well-known/oauth-authorization-server", "/mcp/.well-known/oauth-authorization-server"]) {
      const m = (await (await fetch(server.url + p)).json()) as any;
      expect(m).toMatchObject({
        issuer: server.url,
        code_challenge_methods_supported: ["S256"],
        registration_endpoint: `${server.url}/mcp/oauth/register`,
      });
    }
    for (const p of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/mcp/.well-known/oauth-protected-resource",
    ]) {
      const m = (await (await fetch(server.url + p)).json()) as any;
      expect(m).toMatchObject({ resource: `${server.url}/mcp`, authorization_servers: [server.url] });
    }
  });
});
