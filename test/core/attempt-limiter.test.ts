// Failed-attempt limits hold across a window's edge: the sign-in throttle is a sliding
// window, so ten failures timed around :15:00 lock the account as ten in one minute do.
import { describe, expect, it } from "vitest";
import { createAttemptLimiter } from "../../src/core/attempt-limiter.js";
import { memoryCounters } from "../../src/services/counters.js";

const WINDOW = 15 * 60_000;

function limiterAt(start: number) {
  let t = start;
  const now = () => t;
  const limiter = createAttemptLimiter({ name: "test", max: 10, windowMs: WINDOW, now, counters: memoryCounters(now) });
  return { limiter, at: (ms: number) => (t = ms) };
}

describe("the attempt limiter", () => {
  it("ten failures on both sides of a window's edge block as ten within one window do", async () => {
    const edge = 100 * WINDOW;
    const { limiter, at } = limiterAt(edge - 2_000);
    for (let i = 0; i < 5; i++) await limiter.fail("ana");
    at(edge + 1_000);
    expect(await limiter.blockedFor("ana")).toBe(0);
    for (let i = 0; i < 5; i++) await limiter.fail("ana");
    const wait = await limiter.blockedFor("ana");
    expect(wait).toBeGreaterThan(0);
    // Until the earlier failures have slid out far enough: about a window later, never more.
    expect(wait).toBeLessThanOrEqual(WINDOW);
    at(edge + 1_000 + wait);
    expect(await limiter.blockedFor("ana")).toBe(0);
  });

  it("nine failures do not block; the tenth does, for a whole window after it (and at most one slot more)", async () => {
    const { limiter, at } = limiterAt(7 * WINDOW + 1_000);
    for (let i = 0; i < 9; i++) await limiter.fail("bo");
    expect(await limiter.blockedFor("bo")).toBe(0);
    await limiter.fail("bo");
    const wait = await limiter.blockedFor("bo");
    expect(wait).toBeGreaterThanOrEqual(WINDOW);
    expect(wait).toBeLessThanOrEqual(WINDOW + WINDOW / 60);
    at(7 * WINDOW + 1_000 + wait - 1);
    expect(await limiter.blockedFor("bo")).toBeGreaterThan(0);
    at(7 * WINDOW + 1_000 + wait);
    expect(await limiter.blockedFor("bo")).toBe(0);
  });

  it("a success clears the account's count", async () => {
    const { limiter } = limiterAt(3 * WINDOW);
    for (let i = 0; i < 10; i++) await limiter.fail("cy");
    await limiter.clear("cy");
    expect(await limiter.blockedFor("cy")).toBe(0);
  });
});
