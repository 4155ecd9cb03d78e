import { Hono } from "hono";
import type { DatabaseHandle } from "../../runtime/index.js";
import type { AudioStore } from "../../storage/audio-store.js";

const unavailable = (message: string, checks: Record<string, string>) => ({
  status: "unavailable",
  ...checks,
  error: { code: "service_unavailable", message },
});

/** Liveness and readiness, without authentication (for process supervisors and load balancers). */
export function healthRoutes(
  database: Pick<DatabaseHandle, "check">,
  store: AudioStore,
  queue: { check(): Promise<unknown> },
) {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const db = await database.check();
    if (db === "unreachable")
      return c.json(unavailable("The database cannot be reached.", { database: "unreachable" }), 503);
    if (db === "pending")
      return c.json(
        unavailable("Database migrations are not applied.", { database: "ok", migrations: "pending" }),
        503,
      );
    try {
      await queue.check();
    } catch {
      return c.json(
        unavailable("The job queue cannot be read.", { database: "ok", migrations: "applied", queue: "unreadable" }),
        503,
      );
    }
    try {
      await store.check();
    } catch {
      // The reason (credentials, a missing bucket) goes to the log at start, not to an unauthenticated caller.
      return c.json(
        unavailable("The audio storage cannot be reached.", {
          database: "ok",
          migrations: "applied",
          queue: "ok",
          storage: "unreachable",
        }),
        503,
      );
    }
    return c.json({ status: "ready", database: "ok", migrations: "applied", queue: "ok", storage: "ok" });
  });
  return app;
}
