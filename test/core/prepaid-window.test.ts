// Counting ahead where replicas share their counts: a busy key's requests mostly make
// no count of their own, the counts come out exact once a slot is over, and no timing
// of requests across replicas lets more than the limit through in any window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { busiestWindow } from "../helpers/busiest-window.js";
import { slidingWindow } from "../../src/core/sliding-window.js";
import { MOST_AHEAD, prepaidWindow } from "../../src/core/prepaid-window.js";
import type { CounterStore } from "../../src/core/counters.js";
import { databaseCounters, memoryCounters } from "../../src/services/counters.js";
import { createPgRepositories } from "../../src/db/pg/repos.js";
import { openPostgres, type OpenedPostgres } from "../../src/db/pg/open.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { until } from "../helpers/until.js";

const MINUTE = 60_000;
const EDGE = 29_000_000 * MINUTE;

/** A store that says how many counts were asked of it. */
function counted(store: CounterStore) {
  const asked = { counts: 0 };
  return {
    asked,
    store: {
      ...store,
      addAndRead: (...args: Parameters<CounterStore["addAndRead"]>) => {
        asked.counts++;
        return store.addAndRead(...args);
      },
    } satisfies CounterStore,
  };
}

describe("counting ahead", () => {
  let pg: OpenedPostgres;
  let database: TestDatabase;
  const stores: Record<string, () => CounterStore> = {};
  beforeAll(async () => {
    database = await createTestDatabase();
    pg = await openPostgres(database.url);
    const repos = createPgRepositories(pg.db);
    stores.postgres = () => databaseCounters(repos);
  });
  afterAll(async () => {
    await pg?.close();
    await database?.drop();
  });
  stores.memory = () => memoryCounters(() => EDGE);

  for (const name of ["memory", "postgres"])
    describe(`counted in ${name}`, () => {
      it("lets a busy key's requests skip their own count, and gives back what a slot did not use", async () => {
        let t = EDGE;
        const { store, asked } = counted(stores[name]());
        const window = prepaidWindow(
          slidingWindow(store, () => t),
          () => t,
        );
        const key = `busy-${name}`;
        const send = async (at: number) => {
          t = at;
          return window.take(key, 1_000_000, MINUTE);
        };
        // A first second of 100 requests, each counted on its own (no pace known yet).
        for (let i = 0; i < 100; i++) expect((await send(EDGE + i)).allowed).toBe(true);
        expect(asked.counts).toBe(100);
        // The next second, 100 more: counted ahead, MOST_AHEAD at a time.
        const remaining: number[] = [];
        for (let i = 0; i < 100; i++) remaining.push((await send(EDGE + 1_000 + i)).remaining);
        expect(asked.counts).toBe(100 + Math.ceil(100 / MOST_AHEAD));
        // Each answer still says one fewer is left.
        expect(remaining).toEqual(remaining.map((_, i) => 1_000_000 - 101 - i));
        // One request in the third second counts MOST_AHEAD ahead; the fourth's (one, as
        // the third second's pace was one) gives the unused back.
        await send(EDGE + 2_000);
        await send(EDGE + 3_000);
        const slots = () => store.slots(key, EDGE - MINUTE);
        await until(
          "the unused counts given back",
          async () => (await slots()).find((s) => s.start === EDGE + 2_000)?.count === 1,
          10_000,
          20,
        );
        expect((await slots()).map((s) => [s.start - EDGE, s.count])).toEqual([
          [0, 100],
          [1_000, 100],
          [2_000, 1],
          [3_000, 1],
        ]);
      });

      it("never lets more than the limit through in any window, however two replicas' requests come", async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 1, max: 120 }),
            // Bursts: the second they start in, over how many seconds they go on, and their
            // requests, each at one of the two replicas.
            fc.array(
              fc.record({
                second: fc.integer({ min: 0, max: 150 }),
                seconds: fc.integer({ min: 1, max: 4 }),
                requests: fc.array(fc.boolean(), { minLength: 1, maxLength: 80 }),
              }),
              { minLength: 1, maxLength: 8 },
            ),
            async (limit, bursts) => {
              let t = EDGE;
              const shared = stores[name]();
              const replicas = [0, 1].map(() =>
                prepaidWindow(
                  slidingWindow(shared, () => t),
                  () => t,
                ),
              );
              const key = `p-${name}-${run++}`;
              const accepted: number[] = [];
              const times = bursts
                .flatMap((b) =>
                  b.requests.map((replica, i) => ({
                    at: EDGE + (b.second + Math.floor((i * b.seconds) / b.requests.length)) * 1_000 + i * 3,
                    replica,
                  })),
                )
                .sort((a, b) => a.at - b.at);
              for (const { at, replica } of times) {
                t = at;
                if ((await replicas[Number(replica)].take(key, limit, MINUTE)).allowed) accepted.push(at);
              }
              expect(busiestWindow(accepted, MINUTE)).toBeLessThanOrEqual(limit);
            },
          ),
          { numRuns: name === "memory" ? 200 : 25 },
        );
      });
    });
});
