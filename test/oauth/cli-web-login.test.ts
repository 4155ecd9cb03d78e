// `notula login --web`: the browser flow from the CLI (loopback redirect, PKCE), then
// `notula mcp` bridging with those tokens, refreshing them when they have expired.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../helpers/http.js";
import { admin, BIN, ROOT, run, startServer, tempDir, type TestServer } from "../helpers/server.js";

let server: TestServer;
const cfg = tempDir("notula-web-login-");
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  const api = httpClient(server.url, server.key);
  const ws = (await api("GET", "/v1/me")).body.workspace.id;
  await admin(
    server.dataDir,
    ["users", "create", "--workspace", ws, "--email", "cli@example.com", "--name", "Cli", "--password-stdin"],
    "cli password 12",
  );
  await api("POST", "/v1/notes", { title: "Reached with browser tokens" });
  await api("POST", "/v1/notes", { title: "The admin's own note", visibility: "only-me" });
  env = {
    XDG_CONFIG_HOME: cfg,
    NOTULA_NO_KEYCHAIN: "1",
    NOTULA_API_KEY: "",
    NOTULA_BROWSER: path.join(ROOT, "test/helpers/approve-browser.mjs"),
    NOTULA_TEST_EMAIL: "cli@example.com",
    NOTULA_TEST_PASSWORD: "cli password 12",
  };
});
afterAll(() => server?.stop());

/** Lists notes through `notula mcp`: bridged by NOTULA_URL, or by the profile named. */
async function callThroughBridge(extra: Record<string, string> = {}) {
  const c = new Client({ name: "desktop", version: "1" });
  const url = { NOTULA_URL: extra.NOTULA_PROFILE ? "" : server.url };
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      env: { ...(process.env as Record<string, string>), ...env, ...url, ...extra },
    }),
  );
  const r = await c.callTool({ name: "svc_list_notes", arguments: {} });
  await c.close();
  return (r.structuredContent as any).notes.map((n: any) => n.title) as string[];
}

describe("notula login --web", () => {
  it("signs in through the browser; the MCP bridge then works, and refreshes expired tokens", async () => {
    const login = await run(["login", server.url, "--web"], { env });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/Signed in to .* in the browser/);
    expect(await callThroughBridge()).toContain("Reached with browser tokens");

    const file = path.join(cfg, "notula", "credentials.json");
    const stored = JSON.parse(fs.readFileSync(file, "utf8"));
    // Kept under the profile's own name, not the server's.
    const account = "profile:default#oauth";
    const tokens = JSON.parse(stored[account]);
    fs.writeFileSync(file, JSON.stringify({ ...stored, [account]: JSON.stringify({ ...tokens, expiresAt: 0 }) }));
    expect(await callThroughBridge()).toContain("Reached with browser tokens");
    const refreshed = JSON.parse(JSON.parse(fs.readFileSync(file, "utf8"))[account]);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed.expiresAt).toBeGreaterThan(Date.now());

    // REST commands still ask for an API key, and say how to get one.
    const rest = await run(["me"], { env: { ...env, NOTULA_URL: server.url } });
    expect(rest.code).toBe(4);
    expect(rest.stderr).toMatch(/signed in through the browser .* --browser --profile default/);
    // The bridge answers as the one who signed in (Cli), who cannot see the admin's own note.
    expect(await callThroughBridge()).not.toContain("The admin's own note");

    // Another profile on the same server with the admin's key: neither overwrites the other.
    const adminLogin = await run(["login", server.url, "--with-token", "--profile", "ops"], {
      env,
      input: `${server.key}\n`,
    });
    expect(adminLogin.code, adminLogin.stderr).toBe(0);
    expect(await callThroughBridge({ NOTULA_PROFILE: "ops" })).toContain("The admin's own note");
    expect(await callThroughBridge({ NOTULA_PROFILE: "default" })).not.toContain("The admin's own note");
    const status = JSON.parse((await run(["auth", "status", "--json"], { env })).stdout);
    expect(status.items).toEqual([
      {
        name: "default",
        server: server.url,
        active: false,
        selected: false,
        signedIn: true,
        method: "oauth",
        apiKey: null,
        oauth: "file",
      },
      {
        name: "ops",
        server: server.url,
        active: true,
        selected: true,
        signedIn: true,
        method: "api-key",
        apiKey: "file",
        oauth: null,
      },
    ]);

    const last = JSON.parse(JSON.parse(fs.readFileSync(file, "utf8"))[account]);
    // Ending the sign-in on the server is asked for: not at a terminal, only with --yes.
    const unconfirmed = await run(["logout", "--profile", "default", "--json"], { env });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/pass --yes/);
    const logout = await run(["logout", "--profile", "default", "--json", "--yes"], { env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(JSON.parse(logout.stdout)).toMatchObject({
      profile: "default",
      removed: true,
      oauthRevoked: true,
      keyRevoked: null,
    });
    expect(JSON.parse(fs.readFileSync(file, "utf8"))[account]).toBeUndefined();
    // The other profile's key is untouched.
    expect((await httpClient(server.url, server.key)("GET", "/v1/me")).status).toBe(200);
    // The refresh token is dead on the server: logout ended the sign-in there.
    const again = await fetch(`${server.url}/mcp/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: last.refreshToken,
        client_id: last.clientId,
      }),
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
  });
});
