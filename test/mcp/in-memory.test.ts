// The MCP tools over the SDK's in-memory transport: the server factory the HTTP and
// stdio transports use, with no socket, for a member and an admin of one workspace.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/server.js";
import { createLogger } from "../../src/core/logger.js";
import type { Principal } from "../../src/core/principal.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { client } from "../helpers/http.js";
import { admin } from "../helpers/server.js";

let app: TestApp;
let adminP: Principal;
let memberP: Principal;
let boardNote: string;
let teamNote: string;

async function connect(p: Principal) {
  const server = createMcpServer(app.services, p, createLogger({ level: "silent" }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  const c = new Client({ name: "in-memory", version: "1" });
  await Promise.all([server.connect(a), c.connect(b)]);
  return c;
}

beforeAll(async () => {
  app = await startApp({ args: ["--no-rate-limit"] });
  const api = client(app, app.key);
  const me = (await api("GET", "/v1/me")).body;
  const made = await admin(app.dataDir, [
    "users",
    "create",
    "--workspace",
    me.workspace.id,
    "--email",
    "m@example.com",
    "--name",
    "M",
  ]);
  const base = {
    workspaceId: me.workspace.id,
    scopes: new Set(["notes", "users"] as const),
    plan: "enterprise" as const,
  };
  adminP = { ...base, userId: me.user.id, keyId: "test-admin", role: "admin" };
  memberP = { ...base, userId: made.user.id, keyId: "test-member", role: "member" };
  // The member's private folder, with a note in it; and a note for the whole workspace.
  const mkey = (
    await admin(app.dataDir, [
      "keys",
      "create",
      "--name",
      "m",
      "--scopes",
      "notes,folders",
      "--workspace",
      me.workspace.id,
      "--user",
      made.user.id,
    ])
  ).key;
  const mapi = client(app, mkey);
  const folder = (await mapi("POST", "/v1/folders", { name: "Mine", ownerUserId: made.user.id, isPrivate: true })).body
    .folder;
  boardNote = (
    await mapi("POST", "/v1/notes", { title: "Private plans", folderIds: [folder.id], userWrittenNote: "marmalade" })
  ).body.note.id;
  teamNote = (await api("POST", "/v1/notes", { title: "Team sync", userWrittenNote: "marmalade" })).body.note.id;
});
afterAll(() => app?.stop());

describe("MCP tools in memory", () => {
  it("lists the read-only tools: the interface's six and the action items", async () => {
    const c = await connect(memberP);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "svc_get_note",
      "svc_get_workspace",
      "svc_list_action_items",
      "svc_list_members",
      "svc_list_notes",
      "svc_search_knowledge",
      "svc_search_notes",
    ]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("each caller reads what the access policy lets them see", async () => {
    for (const [p, sees] of [
      [memberP, true],
      [adminP, false],
    ] as const) {
      const c = await connect(p);
      const ids = (
        (await c.callTool({ name: "svc_list_notes", arguments: { limit: 50 } })).structuredContent as {
          notes: { id: string }[];
        }
      ).notes.map((n) => n.id);
      expect(ids).toContain(teamNote);
      expect(ids.includes(boardNote)).toBe(sees);
      const found = (
        (await c.callTool({ name: "svc_search_notes", arguments: { query: "marmalade" } })).structuredContent as {
          notes: { id: string }[];
        }
      ).notes.map((n) => n.id);
      expect(found.includes(boardNote)).toBe(sees);
      expect((await c.callTool({ name: "svc_get_note", arguments: { id: boardNote } })).isError ?? false).toBe(!sees);
    }
  });

  it("a tool the credential's scope does not open is a tool error, not a protocol error", async () => {
    const c = await connect({ ...memberP, scopes: new Set(["notes"]) });
    const r = await c.callTool({ name: "svc_list_members", arguments: {} });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0].text).toMatch(/lacks the 'users' scope/);
  });
});
