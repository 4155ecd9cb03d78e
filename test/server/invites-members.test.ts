// Route-level: through app.request() (the fast tier, helpers/app.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin } from "../helpers/server.js";
import { startApp, type TestApp } from "../helpers/app.js";

let server: TestApp;
let api: Client;
let userId: string;
let workspaceId: string;

beforeAll(async () => {
  server = await startApp({ args: ["--no-rate-limit"] });
  api = client(server, server.key);
  const me = (await api("GET", "/v1/me")).body;
  userId = me.user.id;
  workspaceId = me.workspace.id;
});
afterAll(() => server?.stop());

const INVITE_KEYS = ["code", "createdAt", "email", "expiresAt", "id", "isUrlInvite", "role"];

describe("invites, newer shape", () => {
  it("creates an email invite that expires in 7 days, without folders or groups", async () => {
    const r = await api("POST", "/v1/invites", { email: "New@Example.com", role: "admin", isUrlInvite: false });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.invite).sort()).toEqual(INVITE_KEYS);
    const inv = r.body.invite;
    expect(inv).toMatchObject({ email: "new@example.com", role: "admin", isUrlInvite: false });
    expect(inv.code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const ttl = Date.parse(inv.expiresAt) - Date.parse(inv.createdAt);
    expect(ttl).toBe(7 * 24 * 3600 * 1000);
  });

  it("creates a URL invite with no email, defaulting to member", async () => {
    const r = await api("POST", "/v1/invites", { isUrlInvite: true });
    expect(r.body.invite).toMatchObject({ email: null, role: "member", isUrlInvite: true });
  });

  it("400 for a missing email on an email invite, a bad email or role; 409 for a duplicate", async () => {
    for (const body of [
      {},
      { isUrlInvite: false },
      { email: "not-an-email" },
      { email: "a@b.co", role: "owner" },
      { email: "a@b.co", isUrlInvite: "no" },
    ]) {
      const r = await api("POST", "/v1/invites", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    await api("POST", "/v1/invites", { email: "dup@example.com" });
    const dup = await api("POST", "/v1/invites", { email: "dup@example.com" });
    expect(dup.status).toBe(409);
    const member = await api("POST", "/v1/invites", { email: "admin@notula.local" });
    expect(member.status).toBe(409);
    expect(errorCode(member)).toBe("conflict");
  });

  it("lists pending invites with folders and paginates; deletes", async () => {
    const f = (await api("POST", "/v1/folders", { name: "Onboarding", ownerUserId: userId })).body.folder;
    const withFolder = (await api("POST", "/v1/invites", { email: "f@example.com", folderIds: [f.id] })).body.invite;
    const list = await api("GET", "/v1/invites?limit=1");
    expect(list.body.items).toHaveLength(1);
    expect(list.body.pagination).toMatchObject({ limit: 1, nextOffset: 1, isLast: false });
    const all = (await api("GET", "/v1/invites?limit=100")).body.items;
    const found = all.find((i: { id: string }) => i.id === withFolder.id);
    expect(found.folders).toEqual([{ id: f.id, name: "Onboarding" }]);
    expect(found).not.toHaveProperty("groups");

    const del = await api("DELETE", `/v1/invites/${withFolder.id}`);
    expect(del.body).toEqual({ success: true, message: expect.any(String) });
    expect((await api("DELETE", `/v1/invites/${withFolder.id}`)).status).toBe(404);
    for (const q of ["limit=0", "limit=101", "limit=x", "offset=-1"])
      expect((await api("GET", `/v1/invites?${q}`)).status).toBe(400);
  });
});

describe("invites, older workspace shape", () => {
  it("creates with groups, lists with groups", async () => {
    const g = (await api("POST", "/v1/workspace/groups", { name: "Sales" })).body.userGroup;
    const r = await api("POST", "/v1/workspace/invites", { email: "old@example.com", groupIds: [g.id] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.invite).sort()).toEqual(INVITE_KEYS);
    expect(r.body.invite).toMatchObject({ role: "member", isUrlInvite: false });
    const list = await api("GET", "/v1/workspace/invites?limit=100");
    const found = list.body.items.find((i: { id: string }) => i.id === r.body.invite.id);
    expect(found.groups).toEqual([{ id: g.id, name: "Sales" }]);
    expect(found).not.toHaveProperty("folders");
    expect((await api("DELETE", `/v1/workspace/invites/${r.body.invite.id}`)).status).toBe(200);
  });

  it("requires an email and known groups", async () => {
    expect((await api("POST", "/v1/workspace/invites", { isUrlInvite: true })).status).toBe(400);
    const r = await api("POST", "/v1/workspace/invites", { email: "g@example.com", groupIds: ["grp_nope"] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/grp_nope/);
    for (const q of ["limit=0", "limit=101", "limit=abc"])
      expect((await api("GET", `/v1/workspace/invites?${q}`)).status).toBe(400);
  });
});

describe("members", () => {
  it("lists, searches, reads and sets groups", async () => {
    await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      workspaceId,
      "--email",
      "zed@example.com",
      "--name",
      "Zed Zulu",
    ]);
    const list = await api("GET", "/v1/workspace/members");
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(2);
    const adminMember = list.body.items.find((m: { userId: string }) => m.userId === userId);
    expect(Object.keys(adminMember).sort()).toEqual([
      "createdAt",
      "email",
      "folders",
      "groups",
      "id",
      "name",
      "profileUrl",
      "role",
      "userId",
    ]);
    expect(adminMember.role).toBe("admin");

    const search = await api("GET", "/v1/workspace/members?search=zulu");
    expect(search.body.items.map((m: { email: string }) => m.email)).toEqual(["zed@example.com"]);
    const zed = search.body.items[0];
    expect(zed.role).toBe("member");

    const one = await api("GET", `/v1/workspace/members/${zed.id}`);
    expect(one.body).toEqual({ member: zed });

    const g1 = (await api("POST", "/v1/workspace/groups", { name: "G1" })).body.userGroup;
    const g2 = (await api("POST", "/v1/workspace/groups", { name: "G2" })).body.userGroup;
    const set = await api("PATCH", `/v1/workspace/members/${zed.id}`, { groupIds: [g1.id, g2.id] });
    expect(set.body.member.groups).toEqual([
      { id: g1.id, name: "G1" },
      { id: g2.id, name: "G2" },
    ]);
    const cleared = await api("PATCH", `/v1/workspace/members/${zed.id}`, { groupIds: [] });
    expect(cleared.body.member.groups).toEqual([]);
    expect((await api("PATCH", `/v1/workspace/members/${zed.id}`, { groupIds: ["grp_x"] })).status).toBe(400);
    expect((await api("PATCH", `/v1/workspace/members/${zed.id}`, {})).status).toBe(400);
    expect((await api("GET", "/v1/workspace/members/mem_nope")).status).toBe(404);
    const page = await api("GET", "/v1/workspace/members?limit=1");
    expect(page.body.pagination).toEqual({ limit: 1, nextOffset: 1, isLast: false });
  });

  it("a member's folders are listed", async () => {
    const f = (await api("POST", "/v1/folders", { name: "Mine", ownerUserId: userId })).body.folder;
    const me = (await api("GET", "/v1/workspace/members")).body.items.find(
      (m: { userId: string }) => m.userId === userId,
    );
    expect(me.folders).toContainEqual({ id: f.id, name: "Mine" });
  });
});

describe("me and workspace", () => {
  it("GET /v1/me", async () => {
    const r = await api("GET", "/v1/me");
    expect(r.body).toEqual({
      user: { id: userId, name: "Admin", email: "admin@notula.local", profileUrl: "" },
      workspace: { id: workspaceId, name: "My Workspace", plan: "enterprise" },
      scopes: ["notes", "folders", "users", "templates"],
    });
  });

  it("GET /v1/workspace", async () => {
    const r = await api("GET", "/v1/workspace");
    expect(r.body.workspace).toMatchObject({
      id: workspaceId,
      name: "My Workspace",
      settings: { defaultLanguage: "en", meetingDefaultPermission: "workspace-read" },
      allowedEmailDomains: [],
      iconUrl: null,
    });
  });
});

describe("workspace settings (PATCH /v1/workspace)", () => {
  it("changes the name, allowed domains and note defaults; GET and MCP's object agree", async () => {
    const r = await api("PATCH", "/v1/workspace", {
      name: "  Acme  ",
      allowedEmailDomains: ["Example.com", "@sub.example.org", "example.com"],
      settings: { defaultLanguage: "pt-BR", meetingDefaultPermission: "only-me" },
    });
    expect(r.status).toBe(200);
    expect(r.body.workspace).toMatchObject({
      name: "Acme",
      allowedEmailDomains: ["example.com", "sub.example.org"],
      settings: { defaultLanguage: "pt-BR", meetingDefaultPermission: "only-me" },
    });
    expect(Date.parse(r.body.workspace.updatedAt)).toBeGreaterThanOrEqual(Date.parse(r.body.workspace.createdAt));
    expect((await api("GET", "/v1/workspace")).body).toEqual(r.body);
    // Only the named setting changes.
    const partial = await api("PATCH", "/v1/workspace", { settings: { defaultLanguage: "de" } });
    expect(partial.body.workspace.settings).toEqual({ defaultLanguage: "de", meetingDefaultPermission: "only-me" });
    expect(partial.body.workspace.name).toBe("Acme");
  });

  it("a new note is private to its creator when the workspace says only-me, unless the request names a visibility", async () => {
    const own = await api("POST", "/v1/notes", { title: "Default private" });
    expect(own.body.note.visibility).toBe("only-me");
    const named = await api("POST", "/v1/notes", { title: "Named workspace", visibility: "workspace" });
    expect(named.body.note.visibility).toBe("workspace");
    await api("PATCH", "/v1/workspace", { settings: { meetingDefaultPermission: "workspace-read" } });
    expect((await api("POST", "/v1/notes", { title: "Default workspace" })).body.note.visibility).toBe("workspace");
  });

  it("refuses bad values at their limits with 400 and changes nothing", async () => {
    const before = (await api("GET", "/v1/workspace")).body.workspace;
    const domains = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.example.com`);
    expect((await api("PATCH", "/v1/workspace", { name: "n".repeat(200) })).status).toBe(200);
    for (const body of [
      { name: "" },
      { name: "   " },
      { name: "n".repeat(201) },
      { allowedEmailDomains: domains(51) },
      { allowedEmailDomains: ["not a domain"] },
      { allowedEmailDomains: ["localhost"] },
      { allowedEmailDomains: "example.com" },
      { settings: { meetingDefaultPermission: "everyone" } },
      { settings: { defaultLanguage: "english please" } },
      { settings: { unknown: 1 } },
      { plan: "free" },
    ]) {
      const r = await api("PATCH", "/v1/workspace", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(r)).toBe("bad_request");
    }
    expect(
      (await api("PATCH", "/v1/workspace", { allowedEmailDomains: domains(50) })).body.workspace.allowedEmailDomains,
    ).toHaveLength(50);
    const after = (await api("GET", "/v1/workspace")).body.workspace;
    expect(after.plan).toBeUndefined();
    expect(after.settings).toEqual(before.settings);
    await api("PATCH", "/v1/workspace", { name: "My Workspace", allowedEmailDomains: [] });
  });

  it("a key without the users scope is 403", async () => {
    const { key } = await admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "notes only",
      "--scopes",
      "notes",
      "--json",
    ]);
    const r = await client(server, key)("PATCH", "/v1/workspace", { name: "Taken over" });
    expect(r.status).toBe(403);
    expect((await api("GET", "/v1/workspace")).body.workspace.name).toBe("My Workspace");
  });
});
