// Where replicas share their counts (PostgreSQL), every limited request waits for a
// round trip to count itself before it is answered: on a busy key that was the largest
// part of a small read's time (one note: 2.6–3.0 ms with the count, 1.9–2.1 without, at
// 3,000 meetings). A key this process served often in the previous slot of its window
// (a second of a minute), and that is far from its limit, counts as many at once,
// ahead: the rest of the slot's requests spend them with no round trip. What a slot
// did not spend is given back by the key's next request after it (a key that makes
// none leaves it to pass out of the window), so the counts come out as exact as one
// by one. Meanwhile they err towards refusing, never towards more than the limit: every
// request answered was counted, in its own slot, before it was answered.
import type { Clock } from "./clock.js";
import { slotWidth, type AheadVerdict, type SlidingWindow, type WindowVerdict } from "./sliding-window.js";

/** Most counted ahead at once. */
export const MOST_AHEAD = 50;
/**
 * Counted ahead at most this share of what the key has left: the rest of the window's
 * budget stays for the other replicas, and a key near its limit counts one by one.
 */
const SHARE_OF_ROOM = 0.1;
/** Keys whose pace and counts ahead are remembered; past this many, memory starts afresh. */
const KEYS_REMEMBERED = 10_000;

interface Ahead {
  slot: number;
  windowMs: number;
  limit: number;
  /** The verdict of the first of them. */
  first: WindowVerdict;
  granted: number;
  used: number;
}

interface Pace {
  slot: number;
  count: number;
  /** Requests of the slot before `slot`, when it was the one just before. */
  previous: number;
}

export function prepaidWindow(window: SlidingWindow, now: Clock): SlidingWindow {
  const ahead = new Map<string, Ahead>();
  const pace = new Map<string, Pace>();
  /** What each key had left at its last count, for the size of the next. */
  const room = new Map<string, number>();

  const forget = (key: string) => {
    ahead.delete(key);
    pace.delete(key);
    room.delete(key);
  };
  const bounded = () => {
    if (pace.size < KEYS_REMEMBERED) return;
    // Counts ahead that are dropped stay spent: towards refusing, until their window passes.
    ahead.clear();
    pace.clear();
    room.clear();
  };

  /** This process's requests for `key` in the slot before `slot`, counting this one in `slot`. */
  function paceOf(key: string, slot: number, width: number): number {
    const p = pace.get(key);
    const next: Pace =
      p?.slot === slot
        ? { ...p, count: p.count + 1 }
        : { slot, count: 1, previous: p && p.slot === slot - width ? p.count : 0 };
    pace.set(key, next);
    return next.previous;
  }

  /** Gives back what a past slot counted ahead and did not use; not awaited by the request that finds it. */
  function settle(key: string, a: Ahead) {
    ahead.delete(key);
    const unused = a.granted - a.used;
    if (unused > 0) void window.giveBack(key, a.slot, unused).catch(() => undefined);
  }

  return {
    ...window,
    async take(key, limit, windowMs) {
      const t = now();
      const width = slotWidth(windowMs);
      const slot = t - (t % width);
      bounded();
      const previous = paceOf(key, slot, width);
      const a = ahead.get(key);
      if (a && a.slot === slot && a.windowMs === windowMs && a.limit === limit && a.used < a.granted) {
        a.used++;
        const remaining = Math.max(0, a.first.remaining - (a.used - 1));
        room.set(key, remaining);
        return { ...a.first, remaining };
      }
      if (a) settle(key, a);
      const n = Math.min(MOST_AHEAD, previous, Math.floor((room.get(key) ?? 0) * SHARE_OF_ROOM));
      const v: AheadVerdict = await window.takeAhead(key, limit, windowMs, Math.max(1, n));
      room.set(key, v.remaining);
      if (v.granted > 1) ahead.set(key, { slot: v.slot, windowMs, limit, first: v, granted: v.granted, used: 1 });
      return {
        allowed: v.allowed,
        limit: v.limit,
        remaining: v.remaining,
        resetAt: v.resetAt,
        retryAfterMs: v.retryAfterMs,
      };
    },
    async clear(key) {
      forget(key);
      await window.clear(key);
    },
  };
}
