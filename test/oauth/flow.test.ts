// The official MCP SDK client runs the whole OAuth flow against the real server:
// discovery, registration, sign-in, consent, token, tool calls, refresh.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveInBrowser } from "../helpers/browser-flow.js";
import { client as httpClient } from "../helpers/http.js";
import { admin, startServer, type TestServer, storeQuery } from "../helpers/server.js";

let server: TestServer;
const EMAIL = "ana@example.com";
const PASSWORD = "correct horse battery staple";

class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return "http://127.0.0.1:49152/callback";
  }
  get clientMetadata() {
    return {
      client_name: "Test <Assistant>",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: OAuthTokens) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  const ws = (await httpClient(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
  await admin(
    server.dataDir,
    ["users", "create", "--workspace", ws, "--email", EMAIL, "--name", "Ana", "--password-stdin"],
    PASSWORD,
  );
  await httpClient(server.url, server.key)("POST", "/v1/notes", {
    title: "Quarterly planning",
    summary: "Budget agreed.",
  });
});
afterAll(() => server?.stop());

async function signInWithSdk() {
  const provider = new TestProvider();
  const url = new URL("/mcp", server.url);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: "t", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const back = await approveInBrowser(provider.authorizationUrl!.toString(), { email: EMAIL, password: PASSWORD });
  expect(back.origin + back.pathname).toBe(provider.redirectUrl);
  await first.finishAuth(back.searchParams.get("code")!);
  return { provider, url };
}

describe("OAuth with the MCP SDK client", () => {
  it("registers, signs in through the pages, gets tokens and calls tools", async () => {
    const { provider, url } = await signInWithSdk();
    expect(provider.info?.client_id).toMatch(/^mcp_/);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(provider.saved?.refresh_token).toBeTruthy();
    const c = new Client({ name: "t", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const r = await c.callTool({ name: "svc_list_notes", arguments: {} });
    expect((r.structuredContent as any).notes.map((n: any) => n.title)).toContain("Quarterly planning");
    await c.close();
  });

  it("access tokens are JWTs for this audience, and do not open the REST API", async () => {
    const { provider } = await signInWithSdk();
    const [header, payload] = provider
      .saved!.access_token.split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
    expect(header).toMatchObject({ alg: "HS256", typ: "at+jwt" });
    expect(payload).toMatchObject({
      iss: server.url,
      aud: `${server.url}/mcp`,
      client_id: provider.info!.client_id,
      scope: expect.stringContaining("read"),
    });
    expect(payload.exp - payload.iat).toBe(3600);
    const rest = await httpClient(server.url, provider.saved!.access_token)("GET", "/v1/notes");
    expect(rest.status).toBe(401);
  });

  it("refresh rotates the token; reusing an old one revokes the family", async () => {
    const { provider } = await signInWithSdk();
    const info = provider.info as { client_id: string; client_secret: string };
    const refresh = (token: string) =>
      fetch(`${server.url}/mcp/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: token,
          client_id: info.client_id,
          client_secret: info.client_secret,
        }),
      });
    const first = provider.saved!.refresh_token!;
    const r1 = await refresh(first);
    expect(r1.headers.get("cache-control")).toBe("no-store");
    const t1 = (await r1.json()) as any;
    expect(t1.refresh_token).toBeTruthy();
    expect(t1.refresh_token).not.toBe(first);
    // Replaying the first token, even at once, is theft (RFC 9700 §4.14): everything is revoked,
    // and no second live refresh token is minted.
    const reuse = await refresh(first);
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as any).error).toBe("invalid_grant");
    const afterTheft = await refresh(t1.refresh_token);
    expect(afterTheft.status).toBe(400);
  });

  it("revocation (RFC 7009): the client's refresh token dies with its family; others' tokens and unknown ones change nothing", async () => {
    const { provider } = await signInWithSdk();
    const info = provider.info as { client_id: string; client_secret: string };
    const meta = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
      revocation_endpoint: string;
    };
    expect(meta.revocation_endpoint).toBe(`${server.url}/mcp/oauth/revoke`);
    const post = (url: string, form: Record<string, string>, type = "application/x-www-form-urlencoded") =>
      fetch(url, { method: "POST", headers: { "content-type": type }, body: new URLSearchParams(form) });
    const token = provider.saved!.refresh_token!;
    const refresh = () =>
      post(`${server.url}/mcp/oauth/token`, {
        grant_type: "refresh_token",
        refresh_token: token,
        client_id: info.client_id,
        client_secret: info.client_secret,
      });

    // Another client cannot revoke it: 200 (nothing to say) but the token lives.
    const other = (await (
      await fetch(`${server.url}/mcp/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "Other",
          redirect_uris: ["http://127.0.0.1:50009/cb"],
          token_endpoint_auth_method: "none",
        }),
      })
    ).json()) as { client_id: string };
    expect((await post(meta.revocation_endpoint, { token, client_id: other.client_id })).status).toBe(200);
    // A wrong secret is refused; a missing token is a bad request.
    expect(
      (await post(meta.revocation_endpoint, { token, client_id: info.client_id, client_secret: "wrong" })).status,
    ).toBe(401);
    expect(
      (await post(meta.revocation_endpoint, { client_id: info.client_id, client_secret: info.client_secret })).status,
    ).toBe(400);
    expect(
      (
        await post(
          meta.revocation_endpoint,
          { token, client_id: info.client_id, client_secret: info.client_secret },
          "text/plain",
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await post(meta.revocation_endpoint, {
          token: "never-issued",
          client_id: info.client_id,
          client_secret: info.client_secret,
        })
      ).status,
    ).toBe(200);

    const live = await refresh();
    expect(live.status).toBe(200);
    const next = ((await live.json()) as { refresh_token: string }).refresh_token;
    // Revoking the newest token ends the sign-in: the rotated one is dead too.
    expect(
      (
        await post(meta.revocation_endpoint, {
          token: next,
          token_type_hint: "refresh_token",
          client_id: info.client_id,
          client_secret: info.client_secret,
        })
      ).status,
    ).toBe(200);
    const after = await post(`${server.url}/mcp/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: next,
      client_id: info.client_id,
      client_secret: info.client_secret,
    });
    expect(after.status).toBe(400);
    expect(((await after.json()) as { error: string }).error).toBe("invalid_grant");
  });
});
