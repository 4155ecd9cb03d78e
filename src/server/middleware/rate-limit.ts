// Fixed one-minute windows per API key, with the limit of the key's workspace plan.
// In memory: the service runs as one process, and a restart forgiving a window is harmless.
import type { MiddlewareHandler } from "hono";
import type { Config } from "../../config/schema.js";
import { RateLimitError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import type { AppEnv } from "../context.js";

const WINDOW_MS = 60_000;

export function rateLimit(limits: Config["rateLimit"]["perMinute"], now: Clock): MiddlewareHandler<AppEnv> {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = 0;
  return async (c, next) => {
    const { keyId, plan } = c.get("principal");
    const t = now();
    const start = t - (t % WINDOW_MS);
    if (start !== lastSweep) {
      for (const [k, w] of windows) if (w.start < start) windows.delete(k);
      lastSweep = start;
    }
    let w = windows.get(keyId);
    if (!w || w.start !== start) windows.set(keyId, (w = { start, count: 0 }));
    const limit = limits[plan];
    const resetSec = Math.ceil((start + WINDOW_MS) / 1000);
    c.header("X-RateLimit-Limit", String(limit));
    c.header("X-RateLimit-Reset", String(resetSec));
    if (w.count >= limit) {
      c.header("X-RateLimit-Remaining", "0");
      throw new RateLimitError(Math.max(1, Math.ceil((start + WINDOW_MS - t) / 1000)));
    }
    w.count++;
    c.header("X-RateLimit-Remaining", String(limit - w.count));
    await next();
  };
}
