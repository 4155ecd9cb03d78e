// Limits on how many of something run at once (questions being answered, say), counted
// in the same counter store as the rate limits: in memory for one process, in the
// shared database for replicas, so that "two at once" means two across every replica.
//
// Each running thing holds a lease: one count in the slot of the moment it started,
// kept for `leaseMs`. Released, the count is taken back; a replica that dies holding one
// leaves it to expire after `leaseMs`, so the limit heals without anyone's help. A lease
// is counted first and checked after, so two replicas taking the last place at the same
// moment both see the other and both give it back: the limit errs towards refusing.
import type { Clock } from "./clock.js";
import type { CounterStore } from "./counters.js";

export interface LeaseClaim {
  key: string;
  /** How many may hold a lease on `key` at once. */
  limit: number;
}

export interface ConcurrencyLimiter {
  /** A lease on every key, or null when one of them is full (then none is taken). */
  acquire(claims: LeaseClaim[], leaseMs: number): Promise<(() => Promise<void>) | null>;
}

export function concurrencyLimiter(counters: CounterStore, now: Clock): ConcurrencyLimiter {
  const key = (k: string) => `lease:${k}`;
  return {
    async acquire(claims, leaseMs) {
      const start = now();
      const expiresAt = start + leaseMs;
      const taken: string[] = [];
      const giveBack = async () => {
        for (const k of taken) await counters.undo(key(k), start);
      };
      for (const c of claims) {
        await counters.add(key(c.key), start, expiresAt);
        taken.push(c.key);
      }
      for (const c of claims) {
        const live = await counters.slots(key(c.key), start - leaseMs + 1);
        if (live.reduce((n, s) => n + s.count, 0) > c.limit) {
          await giveBack();
          return null;
        }
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await giveBack();
      };
    },
  };
}
