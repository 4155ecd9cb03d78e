// Limits over a sliding window, with no edge to time requests around: every request
// counted stays counted for at least the whole window after it, so no interval of
// `windowMs` ever holds more than the limit, however the requests are timed. Counts
// are kept in slots of a sixtieth of the window (a second of a minute), so a key costs
// at most 61 small counters; a request may stay counted up to one slot longer than the
// window, which errs towards refusing, by at most 1/60 of the window.
import type { Clock } from "./clock.js";
import type { CounterStore, SlotCount } from "./counters.js";

const SLOTS = 60;

export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  /** What is left in the window after this request (0 when refused). */
  remaining: number;
  /** When every request now counted has left the window (ms since the epoch). */
  resetAt: number;
  /** When a refused request could next succeed (ms from now; 0 when allowed). */
  retryAfterMs: number;
}

export const slotWidth = (windowMs: number) => Math.max(1, Math.floor(windowMs / SLOTS));

/** What the counted slots say of one more request, at `t`. Pure: the rule itself, apart from where counts live. */
export function judge(slots: SlotCount[], limit: number, windowMs: number, t: number): WindowVerdict {
  const width = slotWidth(windowMs);
  // A slot leaves the window once its last moment is a whole window old.
  const leavesAt = (s: SlotCount) => s.start + width + windowMs;
  const live = slots.filter((s) => leavesAt(s) > t && s.count > 0);
  const used = live.reduce((n, s) => n + s.count, 0);
  const resetAt = live.length ? Math.max(...live.map(leavesAt)) : t;
  if (used < limit) {
    // The request let through counts too, until its own slot has left the window.
    const own = t - (t % width) + width + windowMs;
    return { allowed: true, limit, remaining: limit - used - 1, resetAt: Math.max(resetAt, own), retryAfterMs: 0 };
  }
  // Refused: wait until enough of the oldest slots have left for one more to fit.
  let freed = 0;
  let retryAt = t;
  for (const s of [...live].sort((a, b) => a.start - b.start)) {
    freed += s.count;
    retryAt = leavesAt(s);
    if (used - freed < limit) break;
  }
  return { allowed: false, limit, remaining: 0, resetAt, retryAfterMs: Math.max(1, retryAt - t) };
}

/** What `takeAhead` spent: `granted` in the slot beginning at `slot` (none when refused). */
export interface AheadVerdict extends WindowVerdict {
  granted: number;
  slot: number;
}

export interface SlidingWindow {
  /** Spends one of `limit` per `windowMs` for `key` if there is one; a refusal spends nothing. */
  take(key: string, limit: number, windowMs: number): Promise<WindowVerdict>;
  /**
   * Spends `n` at once when all of them fit, else one as `take` does: the verdict is the
   * first one's, `granted` how many were spent and `slot` where (prepaid-window.ts).
   */
  takeAhead(key: string, limit: number, windowMs: number, n: number): Promise<AheadVerdict>;
  /** Gives back `n` spent in `slot` and not used. */
  giveBack(key: string, slot: number, n: number): Promise<void>;
  /** Whether one more would fit, without spending it. */
  check(key: string, limit: number, windowMs: number): Promise<WindowVerdict>;
  /** Counts one whatever the limit (a failed sign-in, counted after the fact). */
  count(key: string, windowMs: number): Promise<void>;
  clear(key: string): Promise<void>;
}

export function slidingWindow(counters: CounterStore, now: Clock): SlidingWindow {
  const slotOf = (t: number, windowMs: number) => t - (t % slotWidth(windowMs));
  const from = (t: number, windowMs: number) => slotOf(t, windowMs) - windowMs;
  const add = (key: string, t: number, windowMs: number) => {
    const start = slotOf(t, windowMs);
    return counters.add(key, start, start + slotWidth(windowMs) + windowMs).then(() => start);
  };
  const expiry = (start: number, windowMs: number) => start + slotWidth(windowMs) + windowMs;
  /**
   * Spends `n` for `key` if all fit. Count first, then look: two replicas racing for the
   * last request both see it spent and both refuse, rather than both taking it.
   */
  async function spend(key: string, limit: number, windowMs: number, n: number): Promise<AheadVerdict> {
    const t = now();
    const start = slotOf(t, windowMs);
    const slots = await counters.addAndRead(key, start, expiry(start, windowMs), from(t, windowMs), n);
    const before = slots.map((s) => (s.start === start ? { ...s, count: s.count - n } : s));
    // All n fit when one more would fit under a limit n − 1 lower; the first one's remaining is n − 1 more.
    const verdict = judge(before, limit - (n - 1), windowMs, t);
    if (!verdict.allowed) await counters.undo(key, start, n);
    return verdict.allowed
      ? { ...verdict, limit, remaining: verdict.remaining + n - 1, granted: n, slot: start }
      : { ...verdict, limit, granted: 0, slot: start };
  }
  return {
    take: (key, limit, windowMs) => spend(key, limit, windowMs, 1),
    async takeAhead(key, limit, windowMs, n) {
      const ahead = n > 1 ? await spend(key, limit, windowMs, n) : null;
      return ahead?.allowed ? ahead : spend(key, limit, windowMs, 1);
    },
    giveBack: (key, slot, n) => counters.undo(key, slot, n),
    async check(key, limit, windowMs) {
      const t = now();
      return judge(await counters.slots(key, from(t, windowMs)), limit, windowMs, t);
    },
    async count(key, windowMs) {
      await add(key, now(), windowMs);
    },
    clear: (key) => counters.clear(key),
  };
}
