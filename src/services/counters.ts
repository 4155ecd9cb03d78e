// Fixed-window counters (API requests per key per minute, failed sign-ins per account
// and per address). One process counts in memory, exactly and for free; replicas on a
// shared database count in it, so that a limit is one limit however many replicas serve.
import type { Clock } from "../core/clock.js";
import type { CounterStore, WindowCount } from "../core/counters.js";

export type { CounterStore, WindowCount };
import type { Repositories } from "../db/repos/index.js";

const windowOf = (t: number, windowMs: number) => t - (t % windowMs);

export function memoryCounters(now: Clock): CounterStore {
  const windows = new Map<string, { start: number; count: number; previous: number }>();
  let swept = 0;
  const current = (key: string, windowMs: number) => {
    const t = now();
    const start = windowOf(t, windowMs);
    if (t - swept > 60_000) {
      // Old windows go, so that keys seen once do not stay forever.
      for (const [k, w] of windows) if (w.start + 3_600_000 < t) windows.delete(k);
      swept = t;
    }
    let w = windows.get(key);
    if (!w || w.start !== start)
      windows.set(key, (w = { start, count: 0, previous: w && w.start === start - windowMs ? w.count : 0 }));
    return { w, resetAt: start + windowMs };
  };
  return {
    hit(key, windowMs) {
      const { w, resetAt } = current(key, windowMs);
      w.count++;
      return Promise.resolve({ count: w.count, resetAt });
    },
    peek(key, windowMs) {
      const { w, resetAt } = current(key, windowMs);
      return Promise.resolve({ count: w.count, resetAt, previous: w.previous });
    },
    clear(key) {
      windows.delete(key);
      return Promise.resolve();
    },
  };
}

export function databaseCounters(repos: Repositories, now: Clock): CounterStore {
  return {
    async hit(key, windowMs) {
      const start = windowOf(now(), windowMs);
      return { count: await repos.sharedState.hit(key, start, start + 2 * windowMs), resetAt: start + windowMs };
    },
    async peek(key, windowMs) {
      const start = windowOf(now(), windowMs);
      const [count, previous] = await Promise.all([
        repos.sharedState.countIn(key, start),
        repos.sharedState.countIn(key, start - windowMs),
      ]);
      return { count, resetAt: start + windowMs, previous };
    },
    clear: (key) => repos.sharedState.clearCounter(key),
  };
}
