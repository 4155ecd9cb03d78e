// Counts failed attempts per key in fixed windows, to slow down password guessing.
// The counts live where the counter store keeps them: memory for one process, the
// database for replicas. A restart forgetting costs an attacker nothing they could
// not get by waiting out the window anyway.
import type { CounterStore } from "./counters.js";
import type { Clock } from "./clock.js";

export function createAttemptLimiter(opts: {
  name: string;
  max: number;
  windowMs: number;
  now: Clock;
  counters: CounterStore;
}) {
  const key = (k: string) => `${opts.name}:${k}`;
  return {
    /**
     * Milliseconds until the key may try again, or 0 when it may now. A sliding window,
     * estimated from two fixed ones (this window's count, and the last one's weighted by
     * how much of it still lies within `windowMs`): failures on both sides of a window's
     * edge count together, so nobody gets twice the attempts by timing them at the edge.
     */
    async blockedFor(k: string): Promise<number> {
      const w = await opts.counters.peek(key(k), opts.windowMs);
      const t = opts.now();
      const start = w.resetAt - opts.windowMs;
      const previous = w.previous ?? 0;
      // Any part of a failure still in the window counts as one: the estimate errs towards blocking.
      const estimate = w.count + previous * (1 - (t - start) / opts.windowMs);
      if (estimate <= opts.max - 1) return 0;
      if (w.count >= opts.max || previous === 0) return Math.max(1, w.resetAt - t);
      // Until the last window's share is no more than what this one leaves room for.
      const elapsedNeeded = (1 - (opts.max - 1 - w.count) / previous) * opts.windowMs;
      return Math.max(1, Math.ceil(start + elapsedNeeded - t));
    },
    async fail(k: string): Promise<void> {
      await opts.counters.hit(key(k), opts.windowMs);
    },
    async clear(k: string): Promise<void> {
      await opts.counters.clear(key(k));
    },
  };
}
