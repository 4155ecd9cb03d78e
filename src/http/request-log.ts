// One log line per request: method, route pattern (never the raw path, which may hold
// share tokens or upload ids), status, duration, request id and workspace. Bodies,
// headers and query strings are never logged: they carry keys and meeting content.
import type { MiddlewareHandler } from "hono";
import type { Logger } from "../core/logger.js";
import type { AppEnv } from "./context.js";

export interface RequestObservation {
  method: string;
  route: string;
  status: number;
  durationSec: number;
}

/** Health probes come every few seconds from supervisors: logged at debug, not info. */
const QUIET = new Set(["/healthz", "/readyz", "/metrics"]);

export function requestLog(logger: Logger, observe?: (o: RequestObservation) => void): MiddlewareHandler<AppEnv> {
  const log = logger.child({ component: "http" });
  return async (c, next) => {
    const started = performance.now();
    await next();
    const durationMs = performance.now() - started;
    // A path no route matched is named as such: raw paths would let anyone fill the
    // logs and the metrics with labels of their choosing.
    const matched = c.req.routePath;
    const route = matched === "/*" || matched === "*" ? "(unmatched)" : matched;
    const status = c.res.status;
    const workspaceId = (c.get("principal") as { workspaceId?: string } | undefined)?.workspaceId;
    const line = {
      method: c.req.method,
      route,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      requestId: c.get("requestId"),
      workspaceId,
    };
    if (status >= 500) log.warn(line, "request failed");
    else if (QUIET.has(c.req.path)) log.debug(line, "request");
    else log.info(line, "request");
    observe?.({ method: c.req.method, route, status, durationSec: durationMs / 1000 });
  };
}
