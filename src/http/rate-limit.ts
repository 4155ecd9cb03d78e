// Fixed one-minute windows per API key, with the limit of the key's workspace plan.
// Counted where the counter store counts: in memory for one process, in the shared
// database for replicas, so that a limit holds however many replicas serve.
import type { MiddlewareHandler } from "hono";
import type { Config } from "../config/schema.js";
import { RateLimitError } from "../core/errors.js";
import type { Clock } from "../core/clock.js";
import type { CounterStore } from "../core/counters.js";
import type { AppEnv } from "./context.js";

const WINDOW_MS = 60_000;

export function rateLimit(
  limits: Config["rateLimit"]["perMinute"],
  counters: CounterStore,
  now: Clock,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { keyId, plan } = c.get("principal");
    const limit = limits[plan];
    const w = await counters.hit(`api:${keyId}`, WINDOW_MS);
    c.header("X-RateLimit-Limit", String(limit));
    c.header("X-RateLimit-Reset", String(Math.ceil(w.resetAt / 1000)));
    if (w.count > limit) {
      c.header("X-RateLimit-Remaining", "0");
      throw new RateLimitError(Math.max(1, Math.ceil((w.resetAt - now()) / 1000)));
    }
    c.header("X-RateLimit-Remaining", String(limit - w.count));
    await next();
  };
}

/**
 * Requests per client address, for what anyone may call before holding a key: the
 * OAuth endpoints (client registration, token, sign-in pages). The peer's address,
 * not a forwarded header, which anyone can set; behind a reverse proxy every client
 * shares the proxy's, so the default is generous.
 */
export function limitByAddress(
  name: string,
  perWindow: number,
  counters: CounterStore,
  now: Clock,
  addressOf: (c: Parameters<MiddlewareHandler>[0]) => string,
  windowMs = WINDOW_MS,
): MiddlewareHandler {
  return async (c, next) => {
    const w = await counters.hit(`${name}:${addressOf(c)}`, windowMs);
    if (w.count > perWindow) throw new RateLimitError(Math.max(1, Math.ceil((w.resetAt - now()) / 1000)));
    await next();
  };
}

/** One key's budget, shared by REST and MCP: whether this request fits, and if not, when to retry (seconds). */
export async function spendKeyBudget(
  keyId: string,
  limit: number,
  counters: CounterStore,
  now: Clock,
): Promise<{ ok: true } | { ok: false; retryAfterSec: number }> {
  const w = await counters.hit(`api:${keyId}`, WINDOW_MS);
  return w.count > limit
    ? { ok: false, retryAfterSec: Math.max(1, Math.ceil((w.resetAt - now()) / 1000)) }
    : { ok: true };
}
