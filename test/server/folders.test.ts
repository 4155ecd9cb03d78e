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

describe("folders", () => {
  it("creates a folder in the spec's shape, without color or isPrivate", async () => {
    const r = await api("POST", "/v1/folders", {
      name: "Customers",
      ownerUserId: userId,
      icon: "📁",
      color: "#ff0000",
      isPrivate: false,
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.folder).sort()).toEqual(["createdAt", "icon", "id", "name", "parentFolderId"]);
    expect(r.body.folder).toMatchObject({ name: "Customers", icon: "📁", parentFolderId: null });
  });

  it("400 when name or ownerUserId is missing, or the owner or parent is unknown", async () => {
    for (const body of [
      { ownerUserId: userId },
      { name: "   ", ownerUserId: userId },
      { name: "x" },
      { name: "x", ownerUserId: "usr_nobody" },
      { name: "x", ownerUserId: userId, parentFolderId: "fld_nope" },
      { name: "x", ownerUserId: userId, color: "red" },
      { name: "x", ownerUserId: userId, isPrivate: "yes" },
    ]) {
      const r = await api("POST", "/v1/folders", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(r)).toBe("bad_request");
    }
    const missingName = await api("POST", "/v1/folders", { ownerUserId: userId });
    expect(missingName.body.error.message).toBe("name: is required");
  });

  it("lists folders with memberCount and nests them", async () => {
    const parent = (await api("POST", "/v1/folders", { name: "Parent", ownerUserId: userId })).body.folder;
    const child = (await api("POST", "/v1/folders", { name: "Child", ownerUserId: userId, parentFolderId: parent.id }))
      .body.folder;
    expect(child.parentFolderId).toBe(parent.id);
    const list = await api("GET", "/v1/folders");
    expect(list.status).toBe(200);
    const found = list.body.folders.find((f: { id: string }) => f.id === child.id);
    expect(found).toEqual({ ...child, memberCount: 1, isPrivate: false, templateId: null, mayManage: true });
  });

  it("updates a folder and refuses a cycle", async () => {
    const a = (await api("POST", "/v1/folders", { name: "A", ownerUserId: userId })).body.folder;
    const b = (await api("POST", "/v1/folders", { name: "B", ownerUserId: userId, parentFolderId: a.id })).body.folder;
    const renamed = await api("PATCH", `/v1/folders/${a.id}`, { name: "A2", icon: null });
    expect(renamed.body.folder).toMatchObject({ id: a.id, name: "A2", icon: null });
    const cycle = await api("PATCH", `/v1/folders/${a.id}`, { parentFolderId: b.id });
    expect(cycle.status).toBe(400);
    const self = await api("PATCH", `/v1/folders/${a.id}`, { parentFolderId: a.id });
    expect(self.status).toBe(400);
    expect((await api("PATCH", "/v1/folders/fld_nope", { name: "x" })).status).toBe(404);
  });

  it("deleting a folder keeps its notes and moves its children up", async () => {
    const top = (await api("POST", "/v1/folders", { name: "Top", ownerUserId: userId })).body.folder;
    const mid = (await api("POST", "/v1/folders", { name: "Mid", ownerUserId: userId, parentFolderId: top.id })).body
      .folder;
    const leaf = (await api("POST", "/v1/folders", { name: "Leaf", ownerUserId: userId, parentFolderId: mid.id })).body
      .folder;
    const { note } = (await api("POST", "/v1/notes", { title: "Filed in mid", folderIds: [mid.id] })).body;
    const del = await api("DELETE", `/v1/folders/${mid.id}`);
    expect(del.body).toEqual({ success: true, message: expect.any(String) });
    expect((await api("GET", `/v1/notes/${note.id}`)).body.note.tags).toEqual([]);
    const list = (await api("GET", "/v1/folders")).body.folders;
    expect(list.find((f: { id: string }) => f.id === leaf.id).parentFolderId).toBe(top.id);
    expect(list.find((f: { id: string }) => f.id === mid.id)).toBeUndefined();
    expect((await api("DELETE", `/v1/folders/${mid.id}`)).status).toBe(404);
  });

  it("private folders are listed only to their members", async () => {
    const other = await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      workspaceId,
      "--email",
      "p@example.com",
      "--name",
      "P",
    ]);
    const otherApi = client(
      server,
      (
        await admin(server.dataDir, [
          "keys",
          "create",
          "--name",
          "p",
          "--workspace",
          workspaceId,
          "--user",
          other.user.id,
        ])
      ).key,
    );
    const priv = (await api("POST", "/v1/folders", { name: "Board", ownerUserId: userId, isPrivate: true })).body
      .folder;
    expect((await api("GET", "/v1/folders")).body.folders.map((f: { id: string }) => f.id)).toContain(priv.id);
    expect((await otherApi("GET", "/v1/folders")).body.folders.map((f: { id: string }) => f.id)).not.toContain(priv.id);
  });
});

describe("workspace tags and user groups", () => {
  it("creates and lists tags", async () => {
    const created = await api("POST", "/v1/workspace/tags", { name: "urgent", color: "#FF0000" });
    expect(created.body.tag).toMatchObject({ name: "urgent", color: "#FF0000" });
    const list = await api("GET", "/v1/workspace/tags");
    expect(list.body).toEqual({ tags: [created.body.tag] });
    expect(Object.keys(created.body.tag).sort()).toEqual(["color", "createdAt", "id", "name"]);
    const dup = await api("POST", "/v1/workspace/tags", { name: "urgent" });
    expect(dup.status).toBe(409);
    expect(errorCode(dup)).toBe("conflict");
  });

  it("creates and lists groups with member counts", async () => {
    const g = (await api("POST", "/v1/workspace/groups", { name: "Engineering" })).body.userGroup;
    expect(g).toMatchObject({ name: "Engineering", memberCount: 0 });
    const members = (await api("GET", "/v1/workspace/members")).body.items;
    await api("PATCH", `/v1/workspace/members/${members[0].id}`, { groupIds: [g.id] });
    const list = await api("GET", "/v1/workspace/groups");
    expect(list.body.userGroups).toEqual([{ id: g.id, name: "Engineering", createdAt: g.createdAt, memberCount: 1 }]);
  });
});
