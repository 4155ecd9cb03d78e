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
    /** Milliseconds until the key may try again, or 0 when it may now. */
    async blockedFor(k: string): Promise<number> {
      const w = await opts.counters.peek(key(k), opts.windowMs);
      return w.count >= opts.max ? Math.max(1, w.resetAt - opts.now()) : 0;
    },
    async fail(k: string): Promise<void> {
      await opts.counters.hit(key(k), opts.windowMs);
    },
    async clear(k: string): Promise<void> {
      await opts.counters.clear(key(k));
    },
  };
}
