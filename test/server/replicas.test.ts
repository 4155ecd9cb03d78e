// Replicas share nothing but the database: an MCP session opened on one API server
// goes on on another and ends for both; a sign-in begun on one is finished on another,
// once; an OAuth sign-in started on one completes on the other.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { openRuntime, type Runtime } from "../../src/runtime.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";

const rpc = (id: number, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("two API servers on one database", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startServer({ args: ["--role", "api", "--no-rate-limit"] });
    b = await startServer({ args: ["--role", "api", "--no-rate-limit"], dataDir: a.dataDir });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("an MCP session opened on one goes on on the other, and a DELETE on either ends it for both", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${a.key}` } },
    });
    const client = new Client({ name: "replica-test", version: "1" });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeTruthy();

    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      authorization: `Bearer ${a.key}`,
      "mcp-session-id": sessionId,
    };
    const onB = await fetch(`${b.url}/mcp`, {
      method: "POST",
      headers,
      body: rpc(7, "tools/call", { name: "svc_get_workspace", arguments: {} }),
    });
    expect(onB.status).toBe(200);
    const text = await onB.text();
    expect(text).toContain('"id":7');
    expect(text).toContain("My Workspace");

    // Another credential cannot use it on either server.
    const other = await fetch(`${b.url}/mcp`, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer ntl_wrong" },
      body: rpc(8, "tools/list"),
    });
    expect(other.status).toBe(401);

    expect((await fetch(`${b.url}/mcp`, { method: "DELETE", headers })).status).toBe(200);
    for (const server of [a, b]) {
      const after = await fetch(`${server.url}/mcp`, { method: "POST", headers, body: rpc(9, "tools/list") });
      expect(after.status, server.url).toBe(404);
    }
    await client.close();
  });
});

describe("sign-ins in progress are shared through the database", () => {
  let dir: string;
  let one: Runtime;
  let two: Runtime;
  beforeAll(async () => {
    dir = tempDir();
    one = await openRuntime(dir, { publicUrl: "http://127.0.0.1:1" });
    two = await openRuntime(dir, { publicUrl: "http://127.0.0.1:2" });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it("a CLI grant approved on one replica is exchanged on another, once, and only with its verifier", async () => {
    const ws = await one.services.workspaces.create({ name: "W" });
    const principal = (await one.services.apiKeys.authenticate(ws.key))!;
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const code = await one.services.cliGrants.approve(principal, "admin", { name: "laptop", challenge });
    const key = await two.services.cliGrants.exchange(code, verifier);
    expect(key?.key).toMatch(/^ntl_/);
    expect(await one.services.cliGrants.exchange(code, verifier)).toBeNull();

    const other = await one.services.cliGrants.approve(principal, "admin", { name: "laptop", challenge });
    expect(await two.services.cliGrants.exchange(other, "not-the-verifier")).toBeNull();
    expect(await two.services.cliGrants.exchange(other, verifier)).toBeNull(); // one attempt only
  });

  it("pending state is sealed at rest, taken once, and gone when it expires", async () => {
    await one.services.pending.put("upstream-oidc", "state-1", { verifier: "very-secret-verifier" }, 60_000);
    const raw = one.database.sqlite!.prepare("SELECT value FROM pending_states").all() as { value: string }[];
    expect(JSON.stringify(raw)).not.toContain("very-secret-verifier");
    expect(JSON.stringify(raw)).not.toContain("state-1");
    expect(await two.services.pending.take("upstream-oidc", "state-1")).toEqual({ verifier: "very-secret-verifier" });
    expect(await one.services.pending.take("upstream-oidc", "state-1")).toBeNull();
    await one.services.pending.put("upstream-oidc", "state-2", { x: 1 }, -1);
    expect(await two.services.pending.take("upstream-oidc", "state-2")).toBeNull();
  });

  it("replicas on separate machines share the secret key through NOTULA_SECRET_KEY", async () => {
    const secretKey = randomBytes(32).toString("base64");
    const db = `${tempDir()}/shared.db`;
    const x = await openRuntime(tempDir(), { publicUrl: "http://127.0.0.1:1", database: `sqlite:${db}`, secretKey });
    const y = await openRuntime(tempDir(), { publicUrl: "http://127.0.0.1:2", database: `sqlite:${db}`, secretKey });
    try {
      await x.services.pending.put("upstream-oidc", "s", { v: 1 }, 60_000);
      expect(await y.services.pending.take("upstream-oidc", "s")).toEqual({ v: 1 });
      expect(x.secrets.sign("link")).toBe(y.secrets.sign("link"));
    } finally {
      await x.close();
      await y.close();
    }
    await expect(openRuntime(tempDir(), { publicUrl: "http://127.0.0.1:3", secretKey: "short" })).rejects.toThrow(
      /32-byte base64 key/,
    );
  });
});
