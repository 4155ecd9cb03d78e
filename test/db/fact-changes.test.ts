// On PostgreSQL the reads every request starts with (a key and its workspace's plan, a
// session and its membership, the private folders a caller is outside of) are kept in
// memory between changes: migration 0014's triggers notify each process of a commit
// to those tables, and this process's own writes count as they are made. What is kept
// must never outlive a change: a key revoked through one replica fails on the next
// request to it, and on another replica as soon as the notification reaches it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factCache, listenForFactChanges, type FactChanges } from "../../src/db/pg/fact-changes.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { withPostgres } from "../helpers/postgres.js";
import { apiKeyRow, workspaceRow } from "../helpers/rows.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

describe("the feed of changes to callers' facts", () => {
  const ctx = withPostgres();
  let facts: FactChanges;
  beforeAll(async () => {
    facts = listenForFactChanges(ctx.database.url);
    await until("the feed to hear its own probe", () => facts.live);
  });
  afterAll(() => facts?.close());

  it("moves on each committed change to a watched table, and not on a key's last use", async () => {
    let g = facts.generation;
    await ctx.pg.pool.query("UPDATE workspaces SET name = name");
    await until("a workspace's change to be heard", () => facts.generation > g);
    // A key's last use, kept to the minute, is not a change of what it may do; the
    // change that follows it is a marker: by its arrival, anything sent before has come.
    g = facts.generation;
    await ctx.pg.pool.query("UPDATE api_keys SET last_used_at = 1");
    await ctx.pg.pool.query("UPDATE folder_members SET user_id = user_id");
    await until("the marker to be heard", () => facts.generation > g);
    expect(facts.generation).toBe(g + 1);
    // Nothing moves it inside a transaction until it commits; a rollback sends nothing.
    g = facts.generation;
    const client = await ctx.pg.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("UPDATE members SET role = role");
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    await ctx.pg.pool.query("UPDATE users SET name = name");
    await until("the marker to be heard", () => facts.generation > g);
    expect(facts.generation).toBe(g + 1);
  });

  it("keeps a read between changes and reads afresh after a change committed by another session", async () => {
    const cache = factCache<string>(facts);
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get("k", load)).toBe("v1");
    expect(await cache.get("k", load)).toBe("v1");
    await ctx.pg.pool.query("UPDATE folders SET name = name");
    await until("the change to drop the kept value", async () => (await cache.get("k", load)) === "v2");
    expect(await cache.get("k", load)).toBe("v2");
  });

  it("keeps nothing read while a change of this process is under way, and drops what it kept once it commits", async () => {
    const cache = factCache<string>(facts);
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get("k", load)).toBe("v1");
    const done = facts.begin();
    expect(await cache.get("k", load)).toBe("v2");
    expect(await cache.get("k", load)).toBe("v3");
    done();
    expect(await cache.get("k", load)).toBe("v4");
    expect(await cache.get("k", load)).toBe("v4");
  });

  it("keeps nothing at all while the feed cannot hear", async () => {
    const deaf = listenForFactChanges(ctx.database.url);
    await until("a second feed to go live", () => deaf.live);
    await deaf.close();
    const cache = factCache<string>(deaf);
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get("k", load)).toBe("v1");
    expect(await cache.get("k", load)).toBe("v2");
  });
});

/** A feed that is live but hears no other session: only this process's own writes move it. */
function deafToOthers(): FactChanges {
  let generation = 0;
  let writing = 0;
  return {
    live: true,
    get generation() {
      return generation;
    },
    get writing() {
      return writing;
    },
    begin() {
      writing++;
      generation++;
      return () => {
        writing--;
        generation++;
      };
    },
    close: async () => {},
  };
}

describe("this process's own writes", () => {
  const ctx = withPostgres();

  it("drop what is kept the moment they are made, in a transaction or not, whatever the notifications", async () => {
    const repos = createPgRepositories(ctx.pg.db, { prepared: ctx.pg.prepared, facts: deafToOthers() });
    await repos.workspaces.insert(workspaceRow("ws_1"));
    await repos.users.insert({
      id: "usr_1",
      email: "a@x.org",
      name: "A",
      profileUrl: "",
      passwordHash: null,
      createdAt: 1,
    });
    await repos.members.insert({ id: "mem_1", workspaceId: "ws_1", userId: "usr_1", role: "member", createdAt: 1 });
    await repos.apiKeys.insert(apiKeyRow());
    expect((await repos.apiKeys.findByHashWithPlan("kh"))?.plan).toBe("pro");
    // Kept: a write behind the repositories' back is not seen…
    await ctx.pg.pool.query("UPDATE workspaces SET plan = 'enterprise'");
    expect((await repos.apiKeys.findByHashWithPlan("kh"))?.plan).toBe("pro");
    // …but one made through them is, at once.
    await repos.apiKeys.revoke("key_1", 5);
    const revoked = await repos.apiKeys.findByHashWithPlan("kh");
    expect(revoked?.revokedAt).toBe(5);
    expect(revoked?.plan).toBe("enterprise");
    await repos.transaction(async () => {
      await repos.members.setRole("ws_1", "mem_1", "admin");
    });
    expect((await repos.apiKeys.findByHashWithPlan("kh"))?.role).toBe("admin");
  });
});

describe("two replicas keeping callers in memory", () => {
  const ctx = withPostgres();
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const args = ["--database", ctx.database.url, "--role", "api", "--no-rate-limit"];
    a = await startServer({ args });
    b = await startServer({ args, dataDir: a.dataDir });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("a key revoked through one replica fails there on the next request, and on the other once it hears", async () => {
    const get = (server: TestServer) =>
      fetch(`${server.url}/v1/notes?limit=1`, { headers: { authorization: `Bearer ${a.key}` } }).then((r) => r.status);
    // Both replicas have the key in memory once each has served it twice.
    for (const server of [a, b, a, b]) expect(await get(server)).toBe(200);
    const revoked = await fetch(`${a.url}/v1/me/key`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(revoked.status).toBe(200);
    expect(await get(a)).toBe(401);
    await until("the other replica to refuse the revoked key", async () => (await get(b)) === 401);
    expect(await get(b)).toBe(401);
  });
});
