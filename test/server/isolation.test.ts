// Route-level: through app.request() (the fast tier, helpers/app.ts).
// Two workspaces on one server: a key of B can neither read, list, change nor
// learn of anything of A (404, never 403), on every endpoint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, seedIds, type Ids } from "../helpers/endpoints.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin } from "../helpers/server.js";
import { startApp, type TestApp } from "../helpers/app.js";

let server: TestApp;
let a: Client;
let b: Client;
let idsA: Ids;
let idsB: Ids;

beforeAll(async () => {
  server = await startApp({ args: ["--no-rate-limit", "--allow-private-webhooks"] });
  a = client(server, server.key);
  const created = await admin(server.dataDir, ["workspaces", "create", "--name", "B", "--plan", "enterprise"]);
  b = client(server, created.key);
  idsA = await seedIds(a);
  idsB = await seedIds(b);
  await a("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:9/a-only" });
  await a("POST", "/v1/workspace/tags", { name: "a-tag" });
});
afterAll(() => server?.stop());

describe("cross-workspace isolation", () => {
  for (const ep of ENDPOINTS.filter((e) => e.byId)) {
    it(`${ep.method} on A's resource with B's key is 404`, async () => {
      const r = await b(ep.method, ep.path(idsA), ep.body?.(idsB));
      expect(r.status, r.text).toBe(404);
      expect(errorCode(r)).toBe("not_found");
    });
  }

  it("A's resources are untouched after B's attempts", async () => {
    expect((await a("GET", `/v1/notes/${idsA.note}`)).body.note.title).toBe("seed");
    expect((await a("GET", "/v1/folders")).body.folders.map((f: { id: string }) => f.id)).toContain(idsA.folder);
    expect((await a("GET", "/v1/invites")).body.items.map((i: { id: string }) => i.id)).toContain(idsA.invite);
    expect((await a("GET", `/v1/workspace/members/${idsA.member}`)).status).toBe(200);
    expect((await a("GET", "/v1/knowledge")).body.items.map((i: { id: string }) => i.id)).toContain(idsA.article);
  });

  it("B's lists never show A's data", async () => {
    const dump = JSON.stringify(
      await Promise.all(
        [
          "/v1/notes?limit=100",
          "/v1/folders",
          "/v1/workspace/tags",
          "/v1/invites",
          "/v1/workspace/invites",
          "/v1/workspace/members",
          "/v1/workspace/groups",
          "/v1/workspace",
          "/v1/integrations/automation/webhook",
          "/v1/knowledge",
          "/v1/me",
        ].map(async (p) => (await b("GET", p)).body),
      ),
    );
    for (const id of Object.values(idsA)) expect(dump).not.toContain(id);
    expect(dump).not.toContain("a-only");
    expect(dump).not.toContain("a-tag");
  });

  it("filters naming A's ids match nothing for B", async () => {
    const r = await b("GET", `/v1/notes?folderIds=${idsA.folder}&createdBy=${idsA.user}`);
    expect(r.body.items).toEqual([]);
    const byFolder = await b("GET", `/v1/notes?folderIds=${idsA.folder}`);
    expect(byFolder.body.items).toEqual([]);
  });

  it("B cannot attach A's folders, groups or users to its own resources", async () => {
    const cases: [string, string, unknown][] = [
      ["POST", "/v1/notes", { title: "x", folderIds: [idsA.folder] }],
      ["PATCH", `/v1/notes/${idsB.note}`, { folderIds: [idsA.folder] }],
      ["PATCH", `/v1/notes/${idsB.note}`, { tagIds: [idsA.folder] }],
      ["POST", "/v1/folders", { name: "x", ownerUserId: idsA.user }],
      ["POST", "/v1/folders", { name: "x", ownerUserId: idsB.user, parentFolderId: idsA.folder }],
      ["PATCH", `/v1/folders/${idsB.folder}`, { parentFolderId: idsA.folder }],
      ["PATCH", `/v1/workspace/members/${idsB.member}`, { groupIds: [idsA.group] }],
      ["POST", "/v1/workspace/invites", { email: "z@example.com", groupIds: [idsA.group] }],
      ["POST", "/v1/invites", { email: "z2@example.com", folderIds: [idsA.folder] }],
    ];
    for (const [m, p, body] of cases) {
      const r = await b(m, p, body);
      expect(r.status, `${m} ${p}: ${r.text}`).toBe(400);
    }
    // The refusal reads the same as for an id that exists nowhere.
    const foreign = await b("POST", "/v1/notes", { title: "x", folderIds: [idsA.folder] });
    const nowhere = await b("POST", "/v1/notes", { title: "x", folderIds: ["fld_nowhere"] });
    expect(foreign.body.error.message.replace(idsA.folder, "ID")).toBe(
      nowhere.body.error.message.replace("fld_nowhere", "ID"),
    );
  });

  it("B removing A's webhook URL is 404 and A keeps it", async () => {
    const r = await b("DELETE", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:9/a-only" });
    expect(r.status).toBe(404);
    const list = (await a("GET", "/v1/integrations/automation/webhook")).body.webhooks;
    expect(list.map((w: { hookUrl: string }) => w.hookUrl)).toContain("http://127.0.0.1:9/a-only");
  });
});
