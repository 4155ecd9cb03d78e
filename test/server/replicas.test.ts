// Replicas share nothing but the database: an MCP session opened on one API server
// goes on on another and ends for both; a sign-in begun on one is finished on another,
// once; an OAuth sign-in started on one completes on the other.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { openRuntime, type Runtime } from "../../src/runtime/index.js";
import { databaseFor, startServer, tempDir, type TestServer, runtimeConfig } from "../helpers/server.js";

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

describe("who may do what, resolved afresh on every replica", () => {
  let a: TestServer;
  let b: TestServer;
  let rt: Runtime;
  beforeAll(async () => {
    a = await startServer({ args: ["--role", "api", "--no-rate-limit"] });
    b = await startServer({ args: ["--role", "api", "--no-rate-limit"], dataDir: a.dataDir });
    // A third process on the same database (on SQLite, the data dir's file), to make keys and members.
    const database = await databaseFor(a.dataDir);
    rt = await openRuntime(
      await runtimeConfig(database ? tempDir() : a.dataDir, { publicUrl: "http://127.0.0.1:1", database }),
    );
  });
  afterAll(async () => {
    await rt?.close();
    await a?.stop();
    await b?.stop();
  });
  const call = (server: TestServer, key: string, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it("a key revoked through one is refused by the other on the next request, every time", async () => {
    const admin = (await rt.services.apiKeys.authenticate(a.key))!;
    for (let i = 0; i < 20; i++) {
      const { key } = await rt.services.apiKeys.create({
        workspaceId: admin.workspaceId,
        userId: admin.userId,
        name: `k${i}`,
        scopes: ["notes"],
      });
      const [first, second] = i % 2 ? [a, b] : [b, a];
      expect((await call(second, key, "GET", "/v1/notes?limit=1")).status).toBe(200);
      expect((await call(first, key, "DELETE", "/v1/me/key")).status).toBe(200);
      expect((await call(second, key, "GET", "/v1/notes?limit=1")).status, `round ${i}`).toBe(401);
    }
  });

  it("a private folder's notes appear and disappear on the other replica as its members change", async () => {
    const admin = (await rt.services.apiKeys.authenticate(a.key))!;
    const { user } = await rt.services.workspaces.addUser({
      workspaceId: admin.workspaceId,
      email: `member-${randomBytes(4).toString("hex")}@example.com`,
      name: "Member",
    });
    const { key: memberKey } = await rt.services.apiKeys.create({
      workspaceId: admin.workspaceId,
      userId: user.id,
      name: "member",
      scopes: ["notes", "folders"],
    });
    const folder = (await (
      await call(a, a.key, "POST", "/v1/folders", { name: "Board", isPrivate: true, ownerUserId: admin.userId })
    ).json()) as { folder: { id: string } };
    expect(folder, JSON.stringify(folder)).toHaveProperty("folder.id");
    const folderId = folder.folder.id;
    const made = (await (
      await call(a, a.key, "POST", "/v1/notes", { title: "Board minutes", userWrittenNote: "x", folderIds: [folderId] })
    ).json()) as { note: { id: string } };
    const seen = async (server: TestServer) =>
      (await call(server, memberKey, "GET", `/v1/notes/${made.note.id}`)).status;
    expect(await seen(b)).toBe(404);
    expect((await call(a, a.key, "PUT", `/v1/folders/${folderId}/members/${user.id}`)).status).toBeLessThan(300);
    expect(await seen(b)).toBe(200);
    expect((await call(b, a.key, "DELETE", `/v1/folders/${folderId}/members/${user.id}`)).status).toBeLessThan(300);
    expect(await seen(a)).toBe(404);
    expect(await seen(b)).toBe(404);
  });
});

describe("sign-ins in progress are shared through the database", () => {
  let dir: string;
  let one: Runtime;
  let two: Runtime;
  beforeAll(async () => {
    dir = tempDir();
    one = await openRuntime(await runtimeConfig(dir, { publicUrl: "http://127.0.0.1:1" }));
    two = await openRuntime(await runtimeConfig(dir, { publicUrl: "http://127.0.0.1:2" }));
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
    const x = await openRuntime(
      await runtimeConfig(tempDir(), { publicUrl: "http://127.0.0.1:1", database: `sqlite:${db}`, secretKey }),
    );
    const y = await openRuntime(
      await runtimeConfig(tempDir(), { publicUrl: "http://127.0.0.1:2", database: `sqlite:${db}`, secretKey }),
    );
    try {
      await x.services.pending.put("upstream-oidc", "s", { v: 1 }, 60_000);
      expect(await y.services.pending.take("upstream-oidc", "s")).toEqual({ v: 1 });
      expect(x.secrets.sign("link")).toBe(y.secrets.sign("link"));
    } finally {
      await x.close();
      await y.close();
    }
    await expect(
      openRuntime(await runtimeConfig(tempDir(), { publicUrl: "http://127.0.0.1:3", secretKey: "short" })),
    ).rejects.toThrow(/32-byte base64 key/);
  });
});
