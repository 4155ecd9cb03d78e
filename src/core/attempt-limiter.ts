// Counts failed attempts per key in a sliding window, to slow down password guessing.
// In memory: a restart forgets, which costs an attacker nothing they could not get by
// waiting out the window anyway.
import type { Clock } from "./clock.js";

export function createAttemptLimiter(opts: { max: number; windowMs: number; now: Clock }) {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const since = opts.now() - opts.windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  return {
    /** Milliseconds until the key may try again, or 0 when it may now. */
    blockedFor(key: string): number {
      const list = recent(key);
      return list.length >= opts.max ? list[0] + opts.windowMs - opts.now() : 0;
    },
    fail(key: string): void {
      failures.set(key, [...recent(key), opts.now()]);
    },
    clear(key: string): void {
      failures.delete(key);
    },
  };
}
