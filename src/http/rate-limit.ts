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

/** Methods that change nothing: a read may start before its count is back. */
const READS = new Set(["GET", "HEAD"]);
/** Keys remembered as far from their limit; past this many the memory starts afresh. */
const ROOMY_KEYS = 10_000;

/**
 * A read of a key that was far from its limit at its last count starts at once, beside
 * its count, instead of after it: where counts are shared (PostgreSQL) that is one round
 * trip less before the answer. The verdict is as exact as before — a read refused by
 * its count is answered 429 and its result dropped — but a key near or over its limit
 * waits for its count before anything runs, so a client spending past its limit costs
 * the server no reads. A write always waits for its count.
 */
export function rateLimit(limits: Config["rateLimit"]["perMinute"], window: SlidingWindow): MiddlewareHandler<AppEnv> {
  const roomy = new Set<string>();
  const remember = (key: string, v: WindowVerdict) => {
    // Room for the reads that may start at once before the next count comes back.
    if (v.allowed && v.remaining >= Math.max(5, v.limit / 10)) {
      if (roomy.size >= ROOMY_KEYS) roomy.clear();
      roomy.add(key);
    } else roomy.delete(key);
  };
  const tell = (c: Context, v: WindowVerdict) => {
    c.header("X-RateLimit-Limit", String(v.limit));
    c.header("X-RateLimit-Remaining", String(v.remaining));
    c.header("X-RateLimit-Reset", String(Math.ceil(v.resetAt / 1000)));
    if (!v.allowed) throw new RateLimitError(retryAfterSec(v));
  };
  return async (c, next) => {
    const { keyId, plan } = c.get("principal");
    const key = `api:${keyId}`;
    const counted = window.take(key, limits[plan], MINUTE_MS);
    if (!(READS.has(c.req.method) && roomy.has(key))) {
      const v = await counted;
      remember(key, v);
      tell(c, v);
      return next();
    }
    // What the request carries before the read adds its own (its id, say), to keep on a refusal.
    const before = new Headers(c.res.headers);
    // The read's own failure is reported only when its count let it through.
    const served = next().then(
      () => null,
      (err: unknown) => ({ err }),
    );
    const v = await counted.finally(() => served);
    remember(key, v);
    const failed = await served;
    if (!v.allowed && !failed) {
      // Nothing of the read goes out: its body (a file's stream, say) is let go, and the
      // refusal carries the headers the request had before the read, not the read's.
      const dropped = c.res;
      await dropped.body?.cancel().catch(() => undefined);
      for (const name of [...dropped.headers.keys()]) dropped.headers.delete(name);
      before.forEach((value, name) => dropped.headers.append(name, value));
      c.res = new Response(null);
    }
    tell(c, v);
    if (failed) throw failed.err;
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
