// The holes an attack on a running server found, each closed: OAuth registration and
// redirect URIs, refresh and code replay, SSRF through IPv6 spellings, numeric query
// values past the database's integers, and rights that must end at once when a role
// changes or a member leaves.
import { createHash, randomBytes } from "node:crypto";
import { addMember } from "../helpers/members.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPrivateAddress } from "../../src/net/address-policy.js";
import { REGISTRATION_LIMITS } from "../../src/services/oauth/client-metadata.js";
import { approveInBrowser } from "../helpers/browser-flow.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { connectMcp } from "../helpers/mcp.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";

const PASSWORD = "a long enough password";
let server: TestServer;
let api: Client;
let ws: string;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  ws = (await api("GET", "/v1/me")).body.workspace.id;
});
afterAll(() => server?.stop());

const register = (body: Record<string, unknown>, url = server.url) =>
  fetch(`${url}/mcp/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const redirect = "http://127.0.0.1:50000/cb";

async function member(name: string, role: "admin" | "member" = "member") {
  const made = await addMember(server, {
    name,
    role,
    email: `${name}-${randomBytes(3).toString("hex")}@example.com`,
    scopes: role === "admin" ? "notes,folders,users,templates" : "notes,folders,templates",
    workspaceId: ws,
  });
  const m = (await api("GET", `/v1/workspace/members/${made.userId}`)).body.member;
  return { ...made, memberId: m.id as string };
}

async function grant(email: string) {
  const reg = (await (
    await register({ client_name: "Trust", redirect_uris: [redirect], token_endpoint_auth_method: "none" })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const u = new URL(`${server.url}/mcp/oauth/authorize`);
  const params = {
    response_type: "code",
    client_id: reg.client_id,
    redirect_uri: redirect,
    state: "s",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  const code = (await approveInBrowser(u.toString(), { email, password: PASSWORD })).searchParams.get("code")!;
  const form = {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirect,
    client_id: reg.client_id,
    code_verifier: verifier,
  };
  return { clientId: reg.client_id, form };
}
const tokenRequest = (form: Record<string, string>) =>
  fetch(`${server.url}/mcp/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
const mcpStatus = async (bearer: string) =>
  (await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${bearer}` } })).status;

describe("OAuth client registration is bounded", () => {
  it("at most 10 redirect URIs of at most 2,000 characters, a name of at most 200, 16 KB in all", async () => {
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://app.example/cb/${i}`);
    expect((await register({ redirect_uris: uris(REGISTRATION_LIMITS.redirectUris) })).status).toBe(201);
    const tooMany = await register({ redirect_uris: uris(REGISTRATION_LIMITS.redirectUris + 1) });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as any).error).toBe("invalid_redirect_uri");
    const longUri = (n: number) => `https://app.example/${"a".repeat(n - "https://app.example/".length)}`;
    expect((await register({ redirect_uris: [longUri(2000)] })).status).toBe(201);
    expect((await register({ redirect_uris: [longUri(2001)] })).status).toBe(400);
    expect((await register({ redirect_uris: [redirect], client_name: "n".repeat(200) })).status).toBe(201);
    const longName = await register({ redirect_uris: [redirect], client_name: "n".repeat(201) });
    expect(longName.status).toBe(400);
    expect(((await longName.json()) as any).error).toBe("invalid_client_metadata");
    const big = await register({
      redirect_uris: [redirect],
      logo_uri: `https://x.example/${"x".repeat(REGISTRATION_LIMITS.metadataBytes)}`,
    });
    expect(big.status).toBe(400);
    expect(((await big.json()) as any).error_description).toMatch(/16 KB/);
    // The 20,000-URI, 900 KB registration that was once stored.
    expect((await register({ redirect_uris: uris(20_000), client_name: "x".repeat(900_000) })).status).toBe(400);
  });

  it("redirect URIs: https, loopback http and reverse-domain schemes; never userinfo, fragments or other schemes", async () => {
    for (const ok of [
      "https://app.example/cb",
      "http://127.0.0.1:8000/cb",
      "http://[::1]/cb",
      "http://localhost:3000/cb",
      "com.example.app:/oauth2redirect",
    ])
      expect((await register({ redirect_uris: [ok] })).status, ok).toBe(201);
    for (const bad of [
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/html,x",
      "ftp://files.example/cb",
      "myapp:/cb",
      "http://app.example/cb",
      "https://app.example/cb#frag",
      "https://user:pass@app.example/cb",
      "http://evil.example@127.0.0.1:50000/cb",
    ]) {
      const r = await register({ redirect_uris: [bad] });
      expect(r.status, bad).toBe(400);
      expect(((await r.json()) as any).error, bad).toBe("invalid_redirect_uri");
    }
  });

  it("an authorize request whose redirect_uri carries userinfo is refused on a page, never redirected", async () => {
    const reg = (await (
      await register({ redirect_uris: ["http://127.0.0.1:50000/callback"], token_endpoint_auth_method: "none" })
    ).json()) as { client_id: string };
    const u = new URL(`${server.url}/mcp/oauth/authorize`);
    const challenge = createHash("sha256").update("v".repeat(43)).digest("base64url");
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: reg.client_id,
      redirect_uri: "http://evil.example@127.0.0.1:50000/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
    }))
      u.searchParams.set(k, v);
    const res = await fetch(u, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("20 registrations an hour per address; the 21st is 429", async () => {
    const limited = await startServer({});
    try {
      for (let i = 0; i < 20; i++)
        expect((await register({ redirect_uris: [redirect] }, limited.url)).status).toBe(201);
      const over = await register({ redirect_uris: [redirect] }, limited.url);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(60);
    } finally {
      await limited.stop();
    }
  });
});

describe("OAuth grants end whole", () => {
  it("a replayed code revokes what it gave: the refresh token and the access token", async () => {
    const m = await member("replay");
    const g = await grant(m.email);
    const first = (await (await tokenRequest(g.form)).json()) as { access_token: string; refresh_token: string };
    expect(await mcpStatus(first.access_token)).toBe(200);
    const replay = await tokenRequest(g.form);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as any).error).toBe("invalid_grant");
    expect(await mcpStatus(first.access_token)).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: g.clientId,
    });
    expect(((await refreshed.json()) as any).error).toBe("invalid_grant");
  });

  it("a refresh token used twice, even at once, mints no second live token: the grant ends", async () => {
    const m = await member("reuse");
    const g = await grant(m.email);
    const first = (await (await tokenRequest(g.form)).json()) as { access_token: string; refresh_token: string };
    const refresh = (t: string) =>
      tokenRequest({ grant_type: "refresh_token", refresh_token: t, client_id: g.clientId });
    const [a, b] = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
    const bodies = [(await a.json()) as any, (await b.json()) as any];
    const minted = bodies.filter((x) => x.refresh_token);
    expect(minted.length).toBeLessThanOrEqual(1);
    // Whatever the first of the two got is dead too, refresh and access token alike.
    for (const x of minted) {
      expect(((await (await refresh(x.refresh_token)).json()) as any).error).toBe("invalid_grant");
      expect(await mcpStatus(x.access_token)).toBe(401);
    }
    expect(await mcpStatus(first.access_token)).toBe(401);
  });

  it("revoking an access token (RFC 7009) ends its grant on the next request", async () => {
    const m = await member("revoke");
    const g = await grant(m.email);
    const t = (await (await tokenRequest(g.form)).json()) as { access_token: string };
    const { client } = await connectMcp(server.url, t.access_token);
    expect((await client.callTool({ name: "svc_get_workspace", arguments: {} })).isError).toBeFalsy();
    const revoked = await fetch(`${server.url}/mcp/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: t.access_token, client_id: g.clientId }),
    });
    expect(revoked.status).toBe(200);
    await expect(client.callTool({ name: "svc_get_workspace", arguments: {} })).rejects.toThrow();
    expect(await mcpStatus(t.access_token)).toBe(401);
    await client.close().catch(() => {});
  });
});

describe("the SSRF guard decides on normalized addresses", () => {
  const privateForms = [
    "127.0.0.1",
    "::1",
    "::",
    "::127.0.0.1",
    "::7f00:1",
    "::ffff:7f00:1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::808:808",
    "2002:7f00:1::",
    "2002:c0a8:101::1",
    "2001::1",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
  ];
  const publicForms = [
    "8.8.8.8",
    "1.1.1.1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2606:4700::1111",
    "2001:4860:4860::8888",
  ];

  it("every IPv4-embedding IPv6 form is judged by the IPv4 address it carries", () => {
    for (const ip of privateForms) expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of publicForms) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it("registering a webhook at any of those spellings is refused with 400", async () => {
    for (const host of [
      "[::ffff:7f00:1]",
      "[::ffff:127.0.0.1]",
      "[::127.0.0.1]",
      "[::7f00:1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::]",
      "[2001::1]",
      "[::ffff:a9fe:a9fe]",
      "2130706433",
      "0x7f.1",
    ]) {
      const r = await api("POST", "/v1/integrations/automation/webhook", { hookUrl: `http://${host}:8080/hook` });
      expect(r.status, host).toBe(400);
      expect(r.body.error.message, host).toMatch(/private or loopback/);
    }
  });
});

describe("numbers past the database's integers", () => {
  it("a huge offset is 400 at validation on every list, never a 500", async () => {
    for (const path of [
      "/v1/workspace/invites",
      "/v1/invites",
      "/v1/notes",
      "/v1/workspace/members",
      "/v1/knowledge",
      "/v1/integrations/automation/deliveries",
    ]) {
      for (const offset of ["9223372036854776000", "1000000001", "1e30"]) {
        const r = await api("GET", `${path}?offset=${offset}`);
        expect(r.status, `${path} ${offset}`).toBe(400);
        expect(errorCode(r)).toBe("bad_request");
      }
      expect((await api("GET", `${path}?offset=1000000000`)).status, path).toBe(200);
    }
  });
});

describe("rights end on the next request when a role changes or a member leaves", () => {
  async function adminSession() {
    const me = (await api("GET", "/v1/me")).body.user;
    await admin(server.dataDir, ["users", "set-password", "--email", me.email], PASSWORD);
    const page = await fetch(`${server.url}/sign-in`);
    const form = /notula_form=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
    const res = await fetch(`${server.url}/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `notula_form=${form}` },
      body: new URLSearchParams({ email: me.email, password: PASSWORD, csrf }),
    });
    const cookie = /notula_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
    const token = /name="csrf" value="([^"]+)"/.exec(
      await (await fetch(`${server.url}/notes/new`, { headers: { cookie } })).text(),
    )![1];
    return (path: string, fields: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf: token, ...fields }),
      });
  }

  it("a demoted admin's admin key stops at once; their rights are a member's", async () => {
    const post = await adminSession();
    const a = await member("demoted", "admin");
    const theirs = client(server.url, a.key);
    expect(
      (await theirs("PATCH", "/v1/workspace", { name: (await api("GET", "/v1/workspace")).body.workspace.name }))
        .status,
    ).toBe(200);
    expect((await post(`/settings/members/${a.memberId}/role`, { role: "member" })).status).toBe(303);
    // The key carried users, which a member's may not: revoked.
    expect((await theirs("GET", "/v1/me")).status).toBe(401);
    // A member key they hold keeps working, with a member's reach.
    const memberKey = (
      await admin(server.dataDir, [
        "keys",
        "create",
        "--name",
        "m",
        "--scopes",
        "notes,folders,users",
        "--workspace",
        ws,
        "--user",
        a.userId,
      ])
    ).key;
    const asMember = client(server.url, memberKey);
    expect((await asMember("GET", "/v1/notes")).status).toBe(200);
    expect((await asMember("PATCH", "/v1/workspace", { name: "Taken over" })).status).toBe(403);
    expect((await asMember("POST", "/v1/invites", { isUrlInvite: true, role: "admin" })).status).toBe(403);
  });

  it("a removed member's key, OAuth token, open MCP session and browser session all end", async () => {
    const post = await adminSession();
    const m = await member("leaver");
    const g = await grant(m.email);
    const t = (await (await tokenRequest(g.form)).json()) as { access_token: string };
    const { client: byKey } = await connectMcp(server.url, m.key);
    expect((await byKey.callTool({ name: "svc_list_notes", arguments: {} })).isError).toBeFalsy();
    expect(await mcpStatus(t.access_token)).toBe(200);
    const page = await fetch(`${server.url}/sign-in`);
    const form = /notula_form=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
    const signed = await fetch(`${server.url}/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `notula_form=${form}` },
      body: new URLSearchParams({ email: m.email, password: PASSWORD, csrf }),
    });
    const cookie = /notula_session=[^;]+/.exec(signed.headers.get("set-cookie") ?? "")![0];
    expect((await fetch(`${server.url}/notes`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);

    expect((await post(`/settings/members/${m.memberId}/remove`)).status).toBe(303);

    expect((await client(server.url, m.key)("GET", "/v1/notes")).status).toBe(401);
    await expect(byKey.callTool({ name: "svc_list_notes", arguments: {} })).rejects.toThrow();
    expect(await mcpStatus(t.access_token)).toBe(401);
    const after = await fetch(`${server.url}/notes`, { headers: { cookie }, redirect: "manual" });
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toMatch(/^\/sign-in/);
    await byKey.close().catch(() => {});
  });

  it("joining through an invite with an existing account's password is throttled as sign-in is", async () => {
    const m = await member("invitee");
    const invite = (await api("POST", "/v1/invites", { isUrlInvite: true, role: "member" })).body.invite;
    const page = await fetch(`${server.url}/invite/${invite.code}`);
    const cookie = /notula_invite[^=]*=[^;]+/.exec(page.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const html = await page.text();
    expect(html).toContain("You are invited to join as a member: you will record meetings");
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1];
    const attempt = (password: string) =>
      fetch(`${server.url}/invite/${invite.code}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, email: m.email, name: "X", password, confirm: password }),
      });
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(`wrong password ${i}`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The right password is refused too while the account is throttled.
    expect((await attempt(PASSWORD)).status).toBe(429);
  });
});
