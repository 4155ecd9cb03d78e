// The repositories written once for both dialects, on both: the same calls, the same
// answers, from SQLite and from PostgreSQL, and transactions that hold on PostgreSQL.
import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { createRepositories, portableRepositories, type Repositories } from "../../src/db/repos/index.js";
import { pgPortableRepositories } from "../../src/db/pg/portable.js";
import { openDatabase } from "../../src/db/open.js";
import { pgKeyLookup } from "../../src/db/pg/api-keys.js";
import { pgConnection } from "../../src/db/pg/connection.js";
import { withPostgres } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";

type Repos = Pick<Repositories, keyof ReturnType<typeof portableRepositories>>;

const ws = (id: string, createdAt = 1) => ({
  id,
  name: `W ${id}`,
  plan: "pro" as const,
  settings: { a: 1 },
  allowedEmailDomains: ["x.org"],
  iconUrl: null,
  createdAt,
  updatedAt: createdAt,
});

/** One scenario over the portable repositories: what it returns must be the same on both. */
async function scenario(r: Repos) {
  const out: Record<string, unknown> = {};
  await r.workspaces.insert(ws("ws_b", 2));
  await r.workspaces.insert(ws("ws_a", 1));
  await r.users.insert({
    id: "usr_1",
    email: "ana@x.org",
    name: "Ana",
    profileUrl: "",
    passwordHash: null,
    createdAt: 1,
  });
  out.count = await r.workspaces.count();
  out.list = (await r.workspaces.list()).map((w) => w.id);
  out.get = await r.workspaces.get("ws_a");
  out.missing = await r.workspaces.get("nope");
  out.updated = [
    await r.workspaces.update("ws_a", { name: "Renamed" }, 5),
    await r.workspaces.update("nope", { name: "x" }, 5),
  ];
  out.byEmail = (await r.users.getByEmail("ANA@x.org"))?.id;
  await r.groups.insert({ id: "grp_2", workspaceId: "ws_a", name: "Sales", createdAt: 1 });
  await r.groups.insert({ id: "grp_1", workspaceId: "ws_a", name: "Design", createdAt: 1 });
  out.groups = await r.groups.listWithCounts("ws_a");
  out.existing = (await r.groups.existing("ws_a", ["grp_1", "grp_x"])).map((g) => g.id);
  const hook = {
    id: "wh_1",
    workspaceId: "ws_a",
    hookUrl: "https://h.example/1",
    secretEnc: "s",
    createdByUserId: null,
    createdAt: 1,
    disabledAt: 3,
    consecutiveFailures: 4,
  };
  out.upsert = [(await r.webhooks.upsert(hook)).id, (await r.webhooks.upsert({ ...hook, id: "wh_2" })).id];
  await r.webhooks.enable("wh_1");
  out.hooks = await r.webhooks.list("ws_a");
  out.deleted = [
    await r.webhooks.deleteByUrl("ws_a", hook.hookUrl),
    await r.webhooks.deleteByUrl("ws_a", hook.hookUrl),
  ];
  await r.oauth.insertClient({
    id: "cl_1",
    secretHash: null,
    name: "C",
    redirectUris: ["http://127.0.0.1/cb"],
    grantTypes: ["authorization_code"],
    authMethod: "none",
    scope: "read",
    createdAt: 1,
  });
  const code = {
    codeHash: "h1",
    clientId: "cl_1",
    userId: "usr_1",
    workspaceId: "ws_a",
    redirectUri: "u",
    codeChallenge: "c",
    scope: "read",
    resource: "r",
    expiresAt: 9,
    usedAt: null,
  };
  await r.oauth.insertCode(code);
  out.codes = [
    (await r.oauth.useCode("h1", 2))?.fresh,
    (await r.oauth.useCode("h1", 3))?.fresh,
    await r.oauth.useCode("h9", 3),
  ];
  await r.sharedState.putPending("cli-grant", "k", { sealed: "v" }, 100);
  out.pending = [
    await r.sharedState.takePending("cli-grant", "k", 50),
    await r.sharedState.takePending("cli-grant", "k", 50),
  ];
  await r.audioUploads.insert({
    id: "upl_1",
    workspaceId: "ws_a",
    userId: "usr_1",
    extension: "wav",
    contentType: "audio/wav",
    maxBytes: 10,
    declaredDurationSec: 5,
    status: "receiving",
    bytes: null,
    noteId: null,
    expiresAt: 9,
    createdAt: 1,
    uploadedAt: null,
  });
  out.uploads = [
    await r.audioUploads.resetReceiving(),
    await r.audioUploads.transition("upl_1", "pending", { status: "uploaded", bytes: 7 }),
    await r.audioUploads.transition("upl_1", "pending", { status: "uploaded" }),
  ];
  out.upload = await r.audioUploads.getInWorkspace("ws_a", "upl_1");
  await r.invites.insert(
    {
      id: "inv_1",
      workspaceId: "ws_a",
      email: "bo@x.org",
      code: "c1",
      role: "member",
      isUrlInvite: false,
      invitedByUserId: null,
      expiresAt: 100,
      createdAt: 1,
      acceptedAt: null,
    },
    { groupIds: ["grp_1", "grp_2"] },
  );
  out.invite = [
    (await r.invites.findPendingByEmail("ws_a", "bo@x.org", 50))?.id,
    await r.invites.findPendingByEmail("ws_a", "bo@x.org", 200),
  ];
  out.inviteGroups = [...(await r.invites.groupsOf(["inv_1"])).entries()];
  out.accepted = [await r.invites.markAccepted("inv_1", 60), await r.invites.markAccepted("inv_1", 61)];
  await r.webhooks.upsert({
    ...hook,
    id: "wh_x3",
    hookUrl: "https://h.example/3",
    disabledAt: null,
    consecutiveFailures: 0,
  });
  out.deliveries = await r.webhookDeliveries.record(
    { id: "evt_e1", workspaceId: "ws_a", type: "note.created", body: "{}", createdAt: 7 },
    (await r.webhooks.live("ws_a")).map((w) => w.id),
  );
  out.failures = [
    await r.webhookDeliveries.recordFailure("wh_x3", 2, 8),
    await r.webhookDeliveries.recordFailure("wh_x3", 2, 9),
    await r.webhookDeliveries.recordFailure("wh_x3", 2, 10),
  ];
  out.deliveryList = await r.webhookDeliveries.list("ws_a", 10, 0);
  await r.members.insert({ id: "mem_1", workspaceId: "ws_a", userId: "usr_1", role: "admin", createdAt: 1 });
  await r.members.setGroups("mem_1", ["grp_1"]);
  out.search = [
    (await r.members.list("ws_a", { limit: 10, offset: 0, search: "ANA" })).map((m) => m.email),
    await r.members.list("ws_a", { limit: 10, offset: 0, search: "100%" }),
  ];
  out.admins = await r.members.countAdmins("ws_a");
  out.memberGroups = [...(await r.members.groupsOf(["mem_1"])).entries()];
  await r.apiKeys.insert({
    id: "key_1",
    workspaceId: "ws_a",
    userId: "usr_1",
    name: "k",
    displayPrefix: "ntl_ab",
    keyHash: "kh",
    scopes: ["notes"],
    createdAt: 1,
    lastUsedAt: null,
    revokedAt: null,
  });
  out.key = await r.apiKeys.findByHashWithPlan("kh");
  out.revoked = [
    await r.apiKeys.revoke("key_1", 5),
    await r.apiKeys.revoke("key_1", 6),
    (await r.apiKeys.findByHashWithPlan("kh"))?.revokedAt,
  ];
  await r.users.insert({
    id: "usr_2",
    email: "bo@x.org",
    name: "Bo",
    profileUrl: "",
    passwordHash: null,
    createdAt: 2,
  });
  await r.folders.insert({
    id: "fld_2",
    workspaceId: "ws_a",
    name: "Zeta",
    icon: null,
    color: "#000",
    isPrivate: false,
    parentFolderId: null,
    ownerUserId: "usr_1",
    createdAt: 2,
    updatedAt: 2,
  });
  await r.folders.insert({
    id: "fld_1",
    workspaceId: "ws_a",
    name: "Alpha",
    icon: null,
    color: "#000",
    isPrivate: true,
    parentFolderId: null,
    ownerUserId: "usr_2",
    createdAt: 1,
    updatedAt: 1,
  });
  await r.folders.update("ws_a", "fld_2", { parentFolderId: "fld_1" });
  // Resolving a caller brings the private folders they are outside of, in the same statement.
  out.hidden = [
    (await r.apiKeys.findByHashWithPlan("kh"))?.hiddenFolderIds,
    (await r.sessions.membership("usr_1", "ws_a"))?.hiddenFolderIds,
    await r.folders.hiddenFrom("ws_a", "usr_1"),
  ];
  out.folders = [
    await r.folders.names("ws_a"),
    (await r.folders.listWithCounts("ws_a")).map((f) => [f.id, f.memberCount]),
    await r.folders.membersOf("fld_2"),
  ];
  out.folderDelete = [
    await r.folders.delete("ws_a", "fld_1", 9),
    (await r.folders.get("ws_a", "fld_2"))?.parentFolderId,
  ];
  await r.sessions.insert({
    idHash: "sh",
    userId: "usr_1",
    expiresAt: 100,
    workspaceId: null,
    csrf: "c",
    userAgent: "ua",
    createdAt: 1,
    lastSeenAt: 1,
  });
  out.session = [
    (await r.sessions.get("sh"))?.userId,
    await r.sessions.membership("usr_1", null),
    await r.sessions.membership("usr_1", "ws_b"),
  ];
  out.sessionsGone = [await r.sessions.deleteForUser("usr_1", null), await r.sessions.get("sh")];
  out.removed = [
    await r.members.remove("ws_a", "mem_1"),
    await r.members.remove("ws_a", "mem_1"),
    await r.members.groupsOf(["mem_1"]),
  ];
  return out;
}

describe("portable repositories", () => {
  const ctx = withPostgres();

  it("answer the same on SQLite and PostgreSQL", async () => {
    const lite = openDatabase(`${tempDir()}/p.db`);
    const onSqlite = await scenario(createRepositories(lite.db));
    lite.close();
    const conn = pgConnection(ctx.pg.db);
    const portable = pgPortableRepositories(conn.db, conn.transaction);
    const onPostgres = await scenario(portable);
    expect(onPostgres).toEqual(onSqlite);
    // PostgreSQL's own statement for the key lookup reads what the portable one reads.
    await portable.folders.insert({
      id: "fld_3",
      workspaceId: "ws_a",
      name: "Board",
      icon: null,
      color: "#000",
      isPrivate: true,
      parentFolderId: null,
      ownerUserId: "usr_2",
      createdAt: 3,
      updatedAt: 3,
    });
    const own = await pgKeyLookup(conn.rows)("kh");
    expect(own).toEqual(await portable.apiKeys.findByHashWithPlan("kh"));
    expect(own).toMatchObject({ id: "key_1", revokedAt: 5, createdAt: 1, hiddenFolderIds: ["fld_3"] });
    expect(await pgKeyLookup(conn.rows)("no-such-hash")).toBeNull();
    expect(onSqlite.count).toBe(2);
    expect(onSqlite.codes).toEqual([true, false, null]);
    expect(onSqlite.deliveries).toEqual(["dlv_e1_3"]);
    expect(onSqlite.failures).toEqual([false, true, true]);
    expect(onSqlite.accepted).toEqual([true, false]);
    expect(onSqlite.search).toEqual([["ana@x.org"], []]);
    expect(onSqlite.folders).toEqual([
      [
        { id: "fld_1", name: "Alpha" },
        { id: "fld_2", name: "Zeta" },
      ],
      [
        ["fld_1", 1],
        ["fld_2", 1],
      ],
      [{ userId: "usr_1", name: "Ana", email: "ana@x.org" }],
    ]);
    expect(onSqlite.session).toEqual([
      "usr_1",
      {
        workspaceId: "ws_a",
        workspaceName: "Renamed",
        plan: "pro",
        role: "admin",
        name: "Ana",
        email: "ana@x.org",
        timeZone: null,
        hiddenFolderIds: [],
      },
      null,
    ]);
    expect(onSqlite.hidden).toEqual([["fld_1"], ["fld_1"], ["fld_1"]]);
    expect(onSqlite.sessionsGone).toEqual([1, null]);
    expect(onSqlite.revoked).toEqual([true, false, 5]);
    expect(onSqlite.key).toMatchObject({ id: "key_1", plan: "pro", scopes: ["notes"], hiddenFolderIds: [] });
    expect(onSqlite.groups).toEqual([
      { id: "grp_1", workspaceId: "ws_a", name: "Design", createdAt: 1, memberCount: 0 },
      { id: "grp_2", workspaceId: "ws_a", name: "Sales", createdAt: 1, memberCount: 0 },
    ]);
  });

  it("on PostgreSQL, a transaction spans awaits on one connection: others do not see it until it commits, and a failure undoes it", async () => {
    const conn = pgConnection(ctx.pg.db);
    const r = pgPortableRepositories(conn.db, conn.transaction);
    let seenDuring: unknown = "unset";
    await conn.transaction(async () => {
      await r.workspaces.insert(ws("ws_tx"));
      seenDuring = await conn.transaction(() => r.workspaces.get("ws_tx")); // nested: joins, sees its own write
      const outside = await ctx.pg.db.query.workspaces.findFirst({ where: (w, { eq }) => eq(w.id, "ws_tx") });
      expect(outside).toBeUndefined();
      await sleep(5);
    });
    expect((seenDuring as { id: string }).id).toBe("ws_tx");
    expect((await r.workspaces.get("ws_tx"))?.id).toBe("ws_tx");

    await expect(
      conn.transaction(async () => {
        await r.workspaces.insert(ws("ws_undone"));
        await r.users.insert({
          id: "usr_1",
          email: "dup@x.org",
          name: "Dup",
          profileUrl: "",
          passwordHash: null,
          createdAt: 1,
        }); // primary key taken
      }),
    ).rejects.toThrow();
    expect(await r.workspaces.get("ws_undone")).toBeNull();
  });
});
