// MCP tool arguments refuse what they do not know, as REST bodies do
// (test/server/strict-bodies.test.ts): an argument a tool does not take is an
// InvalidParams error that names it, on every tool. Each tool is called with arguments it
// accepts plus one unknown, so the unknown argument alone is what it refuses; the listed
// input schema says the same with additionalProperties: false.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/server.js";
import { createLogger } from "../../src/core/logger.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { client } from "../helpers/http.js";

type Args = Record<string, unknown>;

let app: TestApp;
let mcp: Client;
let noteId: string;

/** Arguments each tool accepts, by name. A tool missing here fails the test: add it. */
const VALID: Record<string, () => Args> = {
  svc_list_notes: () => ({ limit: 5 }),
  svc_get_note: () => ({ id: noteId, maxChars: 2000 }),
  svc_search_notes: () => ({ query: "marmalade" }),
  svc_search_knowledge: () => ({ query: "marmalade" }),
  svc_list_members: () => ({ limit: 5 }),
  svc_get_workspace: () => ({}),
  svc_list_action_items: () => ({ status: "open", limit: 5 }),
};

const text = (r: Record<string, unknown>) => (r.content as { text: string }[]).map((c) => c.text).join("\n");

beforeAll(async () => {
  app = await startApp({ args: ["--no-rate-limit"] });
  const api = client(app, app.key);
  const me = (await api("GET", "/v1/me")).body;
  noteId = (await api("POST", "/v1/notes", { title: "Team sync", userWrittenNote: "marmalade" })).body.note.id;
  const server = createMcpServer(
    app.services,
    {
      workspaceId: me.workspace.id,
      userId: me.user.id,
      keyId: "test-admin",
      role: "admin",
      scopes: new Set(["notes", "users"] as const),
      plan: "enterprise",
    },
    createLogger({ level: "silent" }),
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  mcp = new Client({ name: "strict-arguments", version: "1" });
  await Promise.all([server.connect(a), mcp.connect(b)]);
});
afterAll(() => app?.stop());

describe("MCP tool arguments are strict", () => {
  it("knows valid arguments for every tool, and each lists additionalProperties: false", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(VALID).sort());
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
  });

  it("accepts each tool's valid arguments", async () => {
    for (const [name, args] of Object.entries(VALID)) {
      const r = await mcp.callTool({ name, arguments: args() });
      expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
    }
  });

  it("refuses an unknown argument by name on every tool", async () => {
    for (const [name, args] of Object.entries(VALID)) {
      const r = await mcp.callTool({ name, arguments: { ...args(), includeDeleted: true } });
      expect(r.isError, name).toBe(true);
      expect(text(r), name).toContain(String(ErrorCode.InvalidParams));
      expect(text(r), name).toMatch(/includeDeleted/);
    }
  });

  it("refuses a misspelt filter rather than listing everything", async () => {
    const r = await mcp.callTool({ name: "svc_list_notes", arguments: { folderId: "fld_x" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/folderId/);
  });
});
