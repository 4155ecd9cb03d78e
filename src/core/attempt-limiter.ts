// Counts failed attempts per key over a sliding window, to slow down password guessing.
// The counts live where the counter store keeps them: memory for one process, the
// database for replicas. A restart forgetting costs an attacker nothing they could
// not get by waiting out the window anyway.
import type { CounterStore } from "./counters.js";
import type { Clock } from "./clock.js";
import { slidingWindow } from "./sliding-window.js";

export function createAttemptLimiter(opts: {
  name: string;
  max: number;
  windowMs: number;
  now: Clock;
  counters: CounterStore;
}) {
  const key = (k: string) => `${opts.name}:${k}`;
  const window = slidingWindow(opts.counters, opts.now);
  return {
    /**
     * Milliseconds until the key may try again, or 0 when it may now. Failures on both
     * sides of any moment count together, so nobody gets more attempts by timing them.
     */
    async blockedFor(k: string): Promise<number> {
      return (await window.check(key(k), opts.max, opts.windowMs)).retryAfterMs;
    },
    async fail(k: string): Promise<void> {
      await window.count(key(k), opts.windowMs);
    },
    async clear(k: string): Promise<void> {
      await window.clear(key(k));
    },
  };
}
