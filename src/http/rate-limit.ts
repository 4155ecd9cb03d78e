// Request limits per API key (by its workspace's plan) and per client address, over a
// sliding window (core/sliding-window.ts): no timing of requests around a minute's edge
// gets more than the limit. Counted where the counter store counts: in memory for one
// process, in the shared database for replicas, so that a limit holds however many
// replicas serve.
import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "../config/schema.js";
import { RateLimitError } from "../core/errors.js";
import type { SlidingWindow, WindowVerdict } from "../core/sliding-window.js";
import type { AppEnv } from "./context.js";

export const MINUTE_MS = 60_000;

const retryAfterSec = (v: WindowVerdict) => Math.max(1, Math.ceil(v.retryAfterMs / 1000));

export function rateLimit(limits: Config["rateLimit"]["perMinute"], window: SlidingWindow): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { keyId, plan } = c.get("principal");
    const v = await window.take(`api:${keyId}`, limits[plan], MINUTE_MS);
    c.header("X-RateLimit-Limit", String(v.limit));
    c.header("X-RateLimit-Remaining", String(v.remaining));
    c.header("X-RateLimit-Reset", String(Math.ceil(v.resetAt / 1000)));
    if (!v.allowed) throw new RateLimitError(retryAfterSec(v));
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
  window: SlidingWindow,
  addressOf: (c: Context) => string,
  windowMs = MINUTE_MS,
): MiddlewareHandler {
  return async (c, next) => {
    const v = await window.take(`${name}:${addressOf(c)}`, perWindow, windowMs);
    if (!v.allowed) throw new RateLimitError(retryAfterSec(v));
    await next();
  };
}

/** Spends one of a budget per minute (a key's, shared by REST and MCP; an address's): whether it fits, and if not, when to retry (seconds). */
export async function spendPerMinute(
  key: string,
  limit: number,
  window: SlidingWindow,
): Promise<{ ok: true } | { ok: false; retryAfterSec: number }> {
  const v = await window.take(key, limit, MINUTE_MS);
  return v.allowed ? { ok: true } : { ok: false, retryAfterSec: retryAfterSec(v) };
}
