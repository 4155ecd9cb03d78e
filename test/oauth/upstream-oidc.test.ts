// Sign-in through an upstream OpenID Connect provider: a local provider that speaks
// OIDC (discovery, authorize, token with an RS256 id_token, JWKS) stands in for it.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";

let provider: http.Server;
let issuer: string;
let server: TestServer;
let signInAs = "sso@example.com";
const codes = new Map<string, { nonce: string; challenge: string; redirect: string }>();

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  provider = http.createServer(async (req, res) => {
    const url = new URL(req.url!, issuer);
    const json = (b: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(b));
    if (url.pathname === "/.well-known/openid-configuration")
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    if (url.pathname === "/jwks") return json({ keys: [jwk] });
    if (url.pathname === "/authorize") {
      // The person signs in at the provider; here, at once.
      const code = `code-${Math.random()}`;
      codes.set(code, {
        nonce: url.searchParams.get("nonce")!,
        challenge: url.searchParams.get("code_challenge")!,
        redirect: url.searchParams.get("redirect_uri")!,
      });
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state")!);
      back.searchParams.set("iss", issuer);
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/token") {
      let body = "";
      for await (const c of req) body += c;
      const form = new URLSearchParams(body);
      const c = codes.get(form.get("code")!);
      const verifierOk =
        c &&
        createHash("sha256")
          .update(form.get("code_verifier") ?? "")
          .digest("base64url") === c.challenge;
      if (!c || !verifierOk || form.get("client_secret") !== "upstream-secret")
        return void res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid_grant"}');
      const idToken = await new SignJWT({ email: signInAs, email_verified: true, nonce: c.nonce })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(issuer)
        .setAudience("notula-client")
        .setSubject("upstream-user-1")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      return json({ access_token: "at", token_type: "Bearer", expires_in: 300, id_token: idToken });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  server = await startServer({
    args: ["--no-rate-limit"],
    env: {
      NOTULA_OIDC_ISSUER: issuer,
      NOTULA_OIDC_CLIENT_ID: "notula-client",
      NOTULA_OIDC_CLIENT_SECRET: "upstream-secret",
      NOTULA_OIDC_NAME: "Acme SSO",
    },
  });
  const ws = (await httpClient(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
  await admin(server.dataDir, ["users", "create", "--workspace", ws, "--email", "sso@example.com", "--name", "Sso"]);
});
afterAll(async () => {
  await server?.stop();
  provider?.close();
});

/** Follows the authorization through the provider and notula's pages; returns the final redirect. */
async function ssoFlow(): Promise<{ final?: URL; status: number; text: string }> {
  const reg = (await (
    await fetch(`${server.url}/mcp/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "SSO test",
        redirect_uris: ["http://127.0.0.1:50001/cb"],
        token_endpoint_auth_method: "none",
      }),
    })
  ).json()) as any;
  const authorize = `${server.url}/mcp/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: "http://127.0.0.1:50001/cb", state: "st", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" })}`;
  let cookie = "";
  const go = async (u: string, init: RequestInit = {}) => {
    const r = await fetch(u, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        ...(cookie && u.startsWith(server.url) ? { cookie } : {}),
      },
    });
    const set = r.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    return r;
  };
  let r = await go(authorize);
  let url = authorize;
  for (let i = 0; i < 12; i++) {
    if (r.status >= 300 && r.status < 400) {
      url = new URL(r.headers.get("location")!, url).toString();
      if (url.startsWith("http://127.0.0.1:50001/")) return { final: new URL(url), status: r.status, text: "" };
      r = await go(url);
      continue;
    }
    const html = await r.text();
    if (r.status >= 400) return { status: r.status, text: html };
    const link = /id="upstream" href="([^"]+)"/.exec(html);
    if (link) {
      url = new URL(link[1].replace(/&amp;/g, "&"), server.url).toString();
      r = await go(url);
      continue;
    }
    const field = (n: string) => new RegExp(`name="${n}" value="([^"]*)"`).exec(html)![1];
    r = await go(`${server.url}/oauth/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ request: field("request"), csrf: field("csrf"), decision: "allow" }),
    });
  }
  throw new Error("too many steps");
}

describe("upstream OpenID Connect sign-in", () => {
  it("the sign-in page offers the provider; its verified email signs the user in", async () => {
    const r = await ssoFlow();
    expect(r.final?.searchParams.get("code")).toBeTruthy();
    expect(r.final?.searchParams.get("state")).toBe("st");
  });

  it("an email without a notula account is refused", async () => {
    signInAs = "stranger@example.com";
    try {
      const r = await ssoFlow();
      expect(r.status).toBe(403);
      expect(r.text).toContain("There is no notula account for stranger@example.com");
    } finally {
      signInAs = "sso@example.com";
    }
  });

  it("the web app's sign-in page signs in through the provider and returns to the page asked for", async () => {
    let cookie = "";
    const go = async (u: string) => {
      const r = await fetch(u, { redirect: "manual", headers: cookie && u.startsWith(server.url) ? { cookie } : {} });
      const set = r.headers.get("set-cookie");
      if (set) cookie = set.split(";")[0];
      return r;
    };
    const page = await (await go(`${server.url}/sign-in?next=${encodeURIComponent("/settings/keys")}`)).text();
    const link = /id="upstream" href="([^"]+)"/.exec(page);
    expect(link, "the sign-in page links to the provider").toBeTruthy();
    let url = new URL(link![1].replace(/&amp;/g, "&"), server.url).toString();
    let r = await go(url);
    for (let i = 0; i < 5 && r.status >= 300 && r.status < 400; i++) {
      url = new URL(r.headers.get("location")!, url).toString();
      if (url === `${server.url}/settings/keys`) break;
      r = await go(url);
    }
    expect(url).toBe(`${server.url}/settings/keys`);
    const keys = await go(url);
    expect(keys.status).toBe(200);
    expect(await keys.text()).toContain("Sso");
  });

  it("a forged or replayed provider callback signs nobody in", async () => {
    const r = await fetch(`${server.url}/oauth/upstream/callback?code=x&state=never-issued`, { redirect: "manual" });
    expect(r.status).toBe(400);
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  it("someone without an account joins, as a member, a workspace that admits their email's domain", async () => {
    const api = httpClient(server.url, server.key);
    signInAs = "newcomer@admitted.example";
    try {
      expect((await ssoFlow()).status).toBe(403);
      await api("PATCH", "/v1/workspace", { allowedEmailDomains: ["admitted.example"] });
      const r = await ssoFlow();
      expect(r.final?.searchParams.get("code")).toBeTruthy();
      const members = (await api("GET", "/v1/workspace/members?search=newcomer")).body.items;
      expect(members).toEqual([expect.objectContaining({ email: "newcomer@admitted.example", role: "member" })]);
    } finally {
      signInAs = "sso@example.com";
      await api("PATCH", "/v1/workspace", { allowedEmailDomains: [] });
    }
  });
});
