// Request limits have no window edge to time requests around: whatever the timing, no
// interval of one window ever holds more accepted requests than the limit. Run on each
// place counts are kept: memory (one process), SQLite and PostgreSQL (replicas).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { busiestWindow } from "../helpers/busiest-window.js";
import { slidingWindow, judge } from "../../src/core/sliding-window.js";
import type { CounterStore } from "../../src/core/counters.js";
import { databaseCounters, memoryCounters } from "../../src/services/counters.js";
import { openDatabase } from "../../src/db/open.js";
import { createRepositories } from "../../src/db/repos/index.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { openPostgres, type OpenedPostgres } from "../../src/db/pg/open.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { tempDir } from "../helpers/server.js";

const MINUTE = 60_000;
const EDGE = 29_000_000 * MINUTE; // a whole minute: where fixed windows used to reset

type Stores = Record<string, (now: () => number) => CounterStore>;

describe("the sliding window", () => {
  let pg: OpenedPostgres;
  let database: TestDatabase;
  let sqliteClose: () => void;
  const stores: Stores = { memory: (now) => memoryCounters(now) };
  beforeAll(async () => {
    const sqlite = openDatabase(`${tempDir()}/limits.db`);
    sqliteClose = () => sqlite.close();
    const sqliteRepos = createRepositories(sqlite.db);
    stores.sqlite = () => databaseCounters(sqliteRepos);
    database = await createTestDatabase();
    pg = await openPostgres(database.url);
    const pgRepos = createPgRepositories(pg.db);
    stores.postgres = () => databaseCounters(pgRepos);
  });
  afterAll(async () => {
    sqliteClose?.();
    await pg?.close();
    await database?.drop();
  });

  /** Sends requests at the given times (ms, ascending) and returns the times of those accepted. */
  async function send(store: string, times: number[], limit: number, key: string) {
    let t = 0;
    const window = slidingWindow(
      stores[store](() => t),
      () => t,
    );
    const accepted: number[] = [];
    for (const at of times) {
      t = at;
      if ((await window.take(key, limit, MINUTE)).allowed) accepted.push(at);
    }
    return accepted;
  }

  for (const store of ["memory", "sqlite", "postgres"])
    describe(`counted in ${store}`, () => {
      it("a burst on each side of a minute's edge gets the limit, not twice it", async () => {
        const times = [...Array(6).keys()].map((i) => (i < 3 ? EDGE - 30 + i : EDGE + 30 + i));
        const accepted = await send(store, times, 4, `edge-${store}`);
        expect(accepted).toHaveLength(4);
      });

      it("no timing of requests puts more than the limit in any one window", async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 1, max: 6 }),
            // Offsets around an edge, from three minutes before it to three after.
            fc.array(fc.integer({ min: -3 * MINUTE, max: 3 * MINUTE }), { minLength: 1, maxLength: 40 }),
            async (limit, offsets) => {
              const times = offsets.map((o) => EDGE + o).sort((a, b) => a - b);
              const accepted = await send(store, times, limit, `p-${store}-${run++}`);
              expect(busiestWindow(accepted, MINUTE)).toBeLessThanOrEqual(limit);
            },
          ),
          { numRuns: store === "memory" ? 300 : 60 },
        );
      });

      it("a client that paces itself at the limit is not refused; a refusal spends nothing", async () => {
        // Four a minute, one every 15.5 s, for five minutes: a slot's width (1 s) of slack.
        const paced = [...Array(20).keys()].map((i) => EDGE + i * 15_500);
        expect(await send(store, paced, 4, `paced-${store}`)).toEqual(paced);
        // Hammering while refused does not push the next success further away.
        const hammer = [
          ...[0, 1, 2, 3].map((i) => EDGE + i),
          ...[...Array(30).keys()].map((i) => EDGE + 10 + i * 1000),
          EDGE + 61_000,
        ];
        const accepted = await send(store, hammer, 4, `hammer-${store}`);
        expect(accepted).toEqual([EDGE, EDGE + 1, EDGE + 2, EDGE + 3, EDGE + 61_000]);
      });
    });
});

describe("a refused request's wait", () => {
  it("is until enough of the oldest slots have left the window, never longer than a window and a slot", () => {
    const t = EDGE + 30_500;
    const slots = [
      { start: EDGE, count: 2 },
      { start: EDGE + 10_000, count: 1 },
      { start: EDGE + 30_000, count: 1 },
    ];
    const v = judge(slots, 4, MINUTE, t);
    expect(v.allowed).toBe(false);
    // The two at EDGE leave once their slot (1 s wide) is a whole minute old.
    expect(v.retryAfterMs).toBe(EDGE + 1_000 + MINUTE - t);
    expect(judge(slots, 5, MINUTE, t)).toMatchObject({ allowed: true, remaining: 0 });
    expect(judge(slots, 4, MINUTE, EDGE + 1_000 + MINUTE)).toMatchObject({ allowed: true, remaining: 1 });
    // Let through, a request is counted until its own slot leaves: the budget is whole again then.
    expect(judge([], 4, MINUTE, EDGE + 500)).toMatchObject({ remaining: 3, resetAt: EDGE + 1_000 + MINUTE });
  });
});
