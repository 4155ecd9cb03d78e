// Backing off when the server says "not now": a 429 (a rate limit) or a 503 (busy, say
// with uploads) is sent again after its Retry-After, with a little jitter so that a
// script's parallel commands do not come back at the same instant, a bounded number of
// times. Past the budget the command gives up with exit 5, which a script may retry.
// Either answer means the server did nothing with the request, so a POST is safe to send again.
import { info } from "./output.js";

export interface RetryPolicy {
  /** Answers sent again after a pause. */
  statuses: ReadonlySet<number>;
  /** Tries after the first, at most. */
  maxRetries: number;
  /** Longest a request waits in all, over its retries. */
  budgetMs: number;
  /** The pause when the server names none: doubled each time from this. */
  firstPauseMs: number;
  /** Waits `ms` (a test gives its own). */
  sleep(ms: number): Promise<void>;
  /** 0 to 1: where in its jitter a pause falls. */
  random(): number;
}

/**
 * Two minutes in all: a per-minute rate limit asks for up to a minute at a time, and a
 * command that gives up sooner leaves a long export half done for every rate limit.
 */
export const RETRY: RetryPolicy = {
  statuses: new Set([429, 503]),
  maxRetries: 8,
  budgetMs: 120_000,
  firstPauseMs: 1_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** Retry-After in milliseconds: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export async function withBackOff<A extends { status: number; retryAfter?: string }>(
  what: string,
  attempt: () => Promise<A>,
  policy: RetryPolicy = RETRY,
): Promise<A> {
  let waited = 0;
  for (let retry = 0; ; retry++) {
    const answer = await attempt();
    if (!policy.statuses.has(answer.status)) return answer;
    const asked = retryAfterMs(answer.retryAfter) ?? policy.firstPauseMs * 2 ** retry;
    // Up to a quarter more (at most a second), never less than asked.
    const pause = Math.round(asked + policy.random() * Math.min(1_000, asked / 4));
    if (retry >= policy.maxRetries || waited + pause > policy.budgetMs) {
      // The answer itself says what was refused; the caller reports it, with exit 5.
      if (retry > 0)
        info(`${what}: still ${answer.status} after ${retry} retries over ${Math.round(waited / 1000)} s.`);
      return answer;
    }
    info(
      `${what}: ${answer.status === 429 ? "rate limited" : "server busy"}; retrying in ${(pause / 1000).toFixed(1)} s.`,
    );
    await policy.sleep(pause);
    waited += pause;
  }
}
