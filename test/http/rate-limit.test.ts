// A read of a key far from its limit starts beside its count (on PostgreSQL the count
// is a round trip of its own); a key near its limit, and every write, waits for the
// count; a read its count refuses is answered 429 with nothing of the read in it. The
// counts are the real sliding window over memory, held back at will, so each check is
// an ordering, not a timing.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { slidingWindow } from "../../src/core/sliding-window.js";
import type { CounterStore } from "../../src/core/counters.js";
import { memoryCounters } from "../../src/services/counters.js";
import { rateLimit } from "../../src/http/rate-limit.js";
import { errorResponse } from "../../src/http/error-handler.js";
import type { AppEnv } from "../../src/http/context.js";
import type { Principal } from "../../src/core/principal.js";
import { createLogger } from "../../src/core/logger.js";

const NOW = 1_800_000_000_000;

/** Counts kept in memory whose next count can be held until the test lets it go. */
function heldCounts() {
  const inner = memoryCounters(() => NOW);
  let gate: Promise<void> | null = null;
  let open = () => {};
  const store: CounterStore = {
    ...inner,
    addAndRead: async (...args) => {
      const held = gate;
      gate = null;
      if (held) await held;
      return inner.addAndRead(...args);
    },
  };
  return {
    window: slidingWindow(store, () => NOW),
    hold: () => (gate = new Promise<void>((r) => (open = r))),
    release: () => open(),
    /** Spends `n` of the key's window elsewhere, as another replica's requests would. */
    spendElsewhere: async (key: string, n: number) => {
      const start = NOW - (NOW % 1000);
      for (let i = 0; i < n; i++) await inner.add(key, start, start + 61_000);
    },
  };
}

function appWith(limit: number) {
  const counts = heldCounts();
  const events: string[] = [];
  const app = new Hono<AppEnv>();
  app.onError((err, c) => errorResponse(err, c, createLogger({ level: "silent" })));
  app.use("*", async (c, next) => {
    c.set("principal", { keyId: "k1", plan: "free" } as Principal);
    c.header("X-Request-Id", "r1");
    await next();
  });
  app.use("*", rateLimit({ free: limit, pro: limit, enterprise: limit }, counts.window));
  app.get("/read", (c) => {
    events.push("read ran");
    c.header("ETag", '"v1"');
    return c.json({ ok: true });
  });
  app.post("/write", (c) => {
    events.push("write ran");
    return c.json({ ok: true });
  });
  /** A request whose count is held: what ran before the count came back, then the response. */
  async function held(method: string, path: string, meanwhile?: () => Promise<void>) {
    events.length = 0;
    counts.hold();
    const answered = app.request(path, { method });
    // Every step that does not wait on the count has run once the event loop is idle.
    await new Promise((r) => setImmediate(r));
    const before = [...events];
    await meanwhile?.();
    counts.release();
    return { before, res: await answered };
  }
  return { held, counts };
}

describe("request limits and the reads they count", () => {
  it("a key's first read waits for its count; once far from its limit, a read runs beside it", async () => {
    const { held } = appWith(100);
    const first = await held("GET", "/read");
    expect(first.before).toEqual([]);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("X-RateLimit-Remaining")).toBe("99");

    const second = await held("GET", "/read");
    expect(second.before).toEqual(["read ran"]);
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get("X-RateLimit-Remaining")).toBe("98");
    expect(second.res.headers.get("ETag")).toBe('"v1"');
  });

  it("a write always waits for its count", async () => {
    const { held } = appWith(100);
    await held("GET", "/read");
    const write = await held("POST", "/write");
    expect(write.before).toEqual([]);
    expect(write.res.status).toBe(200);
  });

  it("near its limit a read waits, and past it nothing runs", async () => {
    // 10 a minute: room is kept for at least 5 reads started at once.
    const { held } = appWith(10);
    const seen: string[][] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await held("GET", "/read");
      seen.push(r.before);
      statuses.push(r.res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    // Remaining after each: 9, 8, 7, 6, 5 (room), 4 (none) ...
    expect(seen.map((b) => b.length)).toEqual([0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
  });

  it("a read that ran beside a count that refuses it is answered 429, with none of the read's headers", async () => {
    const { held, counts } = appWith(6);
    // The limit of 6 keeps room while 5 remain: the second read runs beside its count.
    expect((await held("GET", "/read")).before).toEqual([]);
    // Meanwhile another replica spends the rest of the key's minute.
    const { before, res } = await held("GET", "/read", () => counts.spendElsewhere("api:k1", 5));
    expect(before).toEqual(["read ran"]);
    expect(res.status).toBe(429);
    expect(res.headers.get("ETag")).toBeNull();
    expect(res.headers.get("X-Request-Id")).toBe("r1");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
  });
});
