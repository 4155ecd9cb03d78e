// The back-off's rule, on a clock of its own: Retry-After in seconds or as a date, a
// quarter more at most as jitter (never less than asked), doubling pauses when the server
// names none, and the retries' count and time budget.
import { describe, expect, it } from "vitest";
import { RETRY, retryAfterMs, withBackOff, type RetryPolicy } from "../../src/cli/lib/back-off.js";

function policy(random: number, over: Partial<RetryPolicy> = {}) {
  const slept: number[] = [];
  const p: RetryPolicy = {
    ...RETRY,
    sleep: async (ms) => void slept.push(ms),
    random: () => random,
    ...over,
  };
  return { p, slept };
}

/** Answers with `statuses` in turn, then 200. */
const answers = (statuses: [number, string?][]) => {
  let i = 0;
  return async () => {
    const [status, retryAfter] = statuses[i++] ?? [200];
    return { status, retryAfter };
  };
};

describe("backing off", () => {
  it("waits what Retry-After asks, plus at most a quarter (and a second) of jitter", async () => {
    for (const [random, expected] of [
      [0, [2000, 40_000]],
      [1, [2500, 41_000]],
    ] as const) {
      const { p, slept } = policy(random);
      const r = await withBackOff(
        "GET /x",
        answers([
          [429, "2"],
          [503, "40"],
        ]),
        p,
      );
      expect(r.status).toBe(200);
      expect(slept).toEqual(expected);
    }
  });

  it("reads Retry-After as an HTTP date, and doubles its own pause when there is none", async () => {
    expect(retryAfterMs("Wed, 21 Oct 2026 07:28:05 GMT", Date.parse("Wed, 21 Oct 2026 07:28:00 GMT"))).toBe(5000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
    const { p, slept } = policy(0);
    await withBackOff("GET /x", answers([[429], [429], [429]]), p);
    expect(slept).toEqual([1000, 2000, 4000]);
  });

  it("gives the refusal back after its last retry, or once the next pause would pass the budget", async () => {
    const many = policy(0);
    const r = await withBackOff("GET /x", answers(Array(20).fill([429, "1"])), many.p);
    expect(r.status).toBe(429);
    expect(many.slept).toHaveLength(RETRY.maxRetries);
    const budget = policy(0);
    const b = await withBackOff(
      "GET /x",
      answers([
        [429, "60"],
        [429, "60"],
        [429, "60"],
      ]),
      budget.p,
    );
    expect(b.status).toBe(429);
    // 60 s, then 60 more: at the two minutes exactly; a third would pass them.
    expect(budget.slept).toEqual([60_000, 60_000]);
    const over = policy(0);
    expect((await withBackOff("GET /x", answers([[429, "121"]]), over.p)).status).toBe(429);
    expect(over.slept).toEqual([]);
  });

  it("passes every other answer through at once", async () => {
    for (const status of [200, 400, 404, 409, 500]) {
      const { p, slept } = policy(0);
      expect((await withBackOff("GET /x", answers([[status, "5"]]), p)).status).toBe(status);
      expect(slept).toEqual([]);
    }
  });
});
