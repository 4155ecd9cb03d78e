// The MCP server through the official SDK client: streamable HTTP with API keys,
// stdio on a local data dir, and stdio bridged to a server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient, type Client as Http } from "../helpers/http.js";
import { connectMcp } from "../helpers/mcp.js";
import { admin, BIN, databaseEnv, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Http;
let noteId: string;

const TOOLS = [
  "svc_get_note",
  "svc_get_workspace",
  "svc_list_action_items",
  "svc_list_members",
  "svc_list_notes",
  "svc_search_knowledge",
  "svc_search_notes",
];

async function connect(key: string, url = server.url) {
  const { client: c, transport } = await connectMcp(url, key);
  return { c, transport };
}

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = httpClient(server.url, server.key);
  noteId = (
    await api("POST", "/v1/notes", {
      title: "Lisbon office planning",
      summary: "Budget for the new office agreed.",
      transcripts: [
        {
          speaker: "Ana",
          text: "The relocation to Portugal costs forty thousand euros.",
          startTimestamp: "00:10",
          endTimestamp: "00:15",
        },
      ],
    })
  ).body.note.id;
  await api("POST", "/v1/notes", { title: "Unrelated standup", userWrittenNote: "Fixed the login bug." });
  await api("POST", "/v1/knowledge", {
    title: "Travel policy",
    content: "Flights to Portugal must be booked two weeks ahead.",
  });
});
afterAll(() => server?.stop());

describe("MCP over streamable HTTP", () => {
  it("initializes as MCP Server 1.0.0 and lists six read-only tools with schemas", async () => {
    const { c } = await connect(server.key);
    expect(c.getServerVersion()).toMatchObject({ name: "MCP Server", version: "1.0.0" });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
    }
    await c.close();
  });

  it("the tools answer with structured content and text", async () => {
    const { c } = await connect(server.key);
    const list = await c.callTool({ name: "svc_list_notes", arguments: { limit: 5 } });
    expect((list.structuredContent as any).notes.map((n: any) => n.title)).toContain("Lisbon office planning");
    expect((list.content as any)[0].text).toContain("Lisbon office planning");

    const got = await c.callTool({ name: "svc_get_note", arguments: { id: noteId } });
    expect((got.structuredContent as any).note.transcripts[0].text).toMatch(/Portugal/);

    const search = await c.callTool({ name: "svc_search_notes", arguments: { query: "relocation costs" } });
    const sc = search.structuredContent as any;
    expect(sc.count).toBe(1);
    expect(sc.notes[0]).toMatchObject({ id: noteId, title: "Lisbon office planning" });
    expect(sc.notes[0].snippet).toMatch(/«relocation»/);

    const knowledge = await c.callTool({ name: "svc_search_knowledge", arguments: { query: "Portugal" } });
    const sources = (knowledge.structuredContent as any).results.map((r: any) => r.source).sort();
    expect(sources).toEqual(["article", "note"]);

    const members = await c.callTool({ name: "svc_list_members", arguments: {} });
    expect((members.structuredContent as any).members[0].role).toBe("admin");
    const ws = await c.callTool({ name: "svc_get_workspace", arguments: {} });
    expect((ws.structuredContent as any).workspace.name).toBe("My Workspace");
    await c.close();
  });

  it("failures are tool errors with a helpful message", async () => {
    const { c } = await connect(server.key);
    const missing = await c.callTool({ name: "svc_get_note", arguments: { id: "note_nope" } });
    expect(missing.isError).toBe(true);
    expect((missing.content as any)[0].text).toMatch(/not found/);
    const badDate = await c.callTool({ name: "svc_list_notes", arguments: { fromDate: "last week" } });
    expect(badDate.isError).toBe(true);
    await c.close();
  });

  it("enforces scopes per tool: notes, users, or none", async () => {
    const foldersOnly = await admin(server.dataDir, ["keys", "create", "--name", "f", "--scopes", "folders"]);
    const { c } = await connect(foldersOnly.key);
    for (const name of ["svc_list_notes", "svc_search_notes", "svc_list_members"]) {
      const r = await c.callTool({ name, arguments: name === "svc_search_notes" ? { query: "x" } : {} });
      expect(r.isError, name).toBe(true);
      expect((r.content as any)[0].text).toMatch(/lacks the '(notes|users)' scope/);
    }
    expect((await c.callTool({ name: "svc_get_workspace", arguments: {} })).isError).toBeFalsy();
    await c.close();
  });

  it("another workspace's key sees nothing of this one", async () => {
    const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Other"]);
    const { c } = await connect(other.key);
    expect((await c.callTool({ name: "svc_get_note", arguments: { id: noteId } })).isError).toBe(true);
    expect(
      (await c.callTool({ name: "svc_search_notes", arguments: { query: "Portugal" } })).structuredContent,
    ).toMatchObject({ count: 0 });
    expect(
      (await c.callTool({ name: "svc_search_knowledge", arguments: { query: "Portugal" } })).structuredContent,
    ).toMatchObject({ results: [] });
    await c.close();
  });

  it("sessions belong to their principal; unknown, ended or foreign ones are 404", async () => {
    const { c, transport } = await connect(server.key);
    const sessionId = transport.sessionId!;
    const other = await admin(server.dataDir, ["keys", "create", "--name", "thief"]);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    };
    const hijack = await fetch(`${server.url}/mcp`, {
      method: "POST",
      body,
      headers: { ...headers, authorization: `Bearer ${other.key}`, "mcp-session-id": sessionId },
    });
    expect(hijack.status).toBe(404);
    const unknown = await fetch(`${server.url}/mcp`, {
      method: "POST",
      body,
      headers: { ...headers, authorization: `Bearer ${server.key}`, "mcp-session-id": "nope" },
    });
    expect(unknown.status).toBe(404);
    await transport.terminateSession();
    const ended = await fetch(`${server.url}/mcp`, {
      method: "POST",
      body,
      headers: { ...headers, authorization: `Bearer ${server.key}`, "mcp-session-id": sessionId },
    });
    expect(ended.status).toBe(404);
    await c.close();
  });

  it("401 without a key, 403 for a foreign Origin, 400 for a bad protocol version", async () => {
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const anon = await fetch(`${server.url}/mcp`, { method: "POST", body: init, headers });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const evil = await fetch(`${server.url}/mcp`, {
      method: "POST",
      body: init,
      headers: { ...headers, authorization: `Bearer ${server.key}`, origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    const { transport } = await connect(server.key);
    const bad = await fetch(`${server.url}/mcp`, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      headers: {
        ...headers,
        authorization: `Bearer ${server.key}`,
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "1999-01-01",
      },
    });
    expect(bad.status).toBe(400);
  });

  it("GET /mcp without an event stream describes the server and its tools", async () => {
    const r = await api("GET", "/mcp");
    expect(r.body).toMatchObject({ name: "MCP Server", version: "1.0.0", transport: "streamable-http" });
    expect(r.body.tools.map((t: any) => t.name).sort()).toEqual(TOOLS);
    expect(r.body.tools[0].inputSchema.type).toBe("object");
  });
});

describe("notula mcp over stdio", () => {
  it("serves a local data dir directly", async () => {
    const c = new Client({ name: "desktop", version: "1" });
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp", "--data-dir", server.dataDir],
        env: {
          ...process.env,
          ...databaseEnv(server.dataDir),
          NOTULA_URL: "",
          NOTULA_WORKSPACE: (await api("GET", "/v1/me")).body.workspace.id,
        } as Record<string, string>,
      }),
    );
    expect(c.getServerVersion()?.name).toBe("MCP Server");
    const r = await c.callTool({ name: "svc_search_notes", arguments: { query: "Portugal" } });
    expect((r.structuredContent as any).notes[0].id).toBe(noteId);
    // Its links go to the server running on that data dir, wherever it listens.
    expect((r.structuredContent as any).notes[0].url.startsWith(`${server.url}/notes/${noteId}`)).toBe(true);
    await c.close();
  });

  it("bridged, stops when the assistant closes its input, as local mode does", async () => {
    const { run } = await import("../helpers/server.js");
    const r = await run(["mcp"], { env: { NOTULA_URL: server.url, NOTULA_API_KEY: server.key }, input: "" });
    expect(r.code, r.stderr).toBe(0);
  });

  it("bridges to a server's /mcp with an API key", async () => {
    const c = new Client({ name: "desktop", version: "1" });
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp"],
        env: { ...process.env, NOTULA_URL: server.url, NOTULA_API_KEY: server.key } as Record<string, string>,
      }),
    );
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const r = await c.callTool({ name: "svc_get_note", arguments: { id: noteId } });
    expect((r.structuredContent as any).note.title).toBe("Lisbon office planning");
    await c.close();
  });
});

describe("notula mcp --http (local, no credential, loopback only)", () => {
  it("serves the tools and refuses foreign Host and Origin headers", async () => {
    const { spawn } = await import("node:child_process");
    const proc = spawn(process.execPath, [BIN, "mcp", "--http", "--data-dir", server.dataDir], {
      env: {
        ...process.env,
        ...databaseEnv(server.dataDir),
        NOTULA_URL: "",
        NOTULA_WORKSPACE: (await api("GET", "/v1/me")).body.workspace.id,
      },
    });
    try {
      const url = await new Promise<string>((resolve) =>
        proc.stdout!.on("data", (d) => resolve(/(http:\S+\/mcp)/.exec(String(d))![1])),
      );
      const c = new Client({ name: "local", version: "1" });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await c.listTools()).tools).toHaveLength(TOOLS.length);
      await c.close();
      const init = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      });
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const http = await import("node:http");
      const status = (extra: Record<string, string>) =>
        new Promise<number>((resolve) => {
          const req = http.request(url, { method: "POST", headers: { ...headers, ...extra } }, (res) =>
            resolve(res.statusCode!),
          );
          req.end(init);
        });
      expect(await status({ host: "evil.example" })).toBe(403);
      expect(await status({ origin: "https://evil.example" })).toBe(403);
    } finally {
      proc.kill();
    }
  });
});
