import type Database from "better-sqlite3";
import { Hono } from "hono";
import { migrationsApplied } from "../../db/open.js";
import type { AudioStore } from "../../storage/audio-store.js";

const unavailable = (message: string, checks: Record<string, string>) => ({
  status: "unavailable",
  ...checks,
  error: { code: "service_unavailable", message },
});

/** Liveness and readiness, without authentication (for process supervisors and load balancers). */
export function healthRoutes(sqlite: Database.Database, store: AudioStore) {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      sqlite.prepare("SELECT 1").get();
    } catch {
      return c.json(unavailable("The database cannot be reached.", { database: "unreachable" }), 503);
    }
    if (!migrationsApplied(sqlite)) return c.json(unavailable("Database migrations are not applied.", { database: "ok", migrations: "pending" }), 503);
    try {
      await store.check();
    } catch {
      // The reason (credentials, a missing bucket) goes to the log at start, not to an unauthenticated caller.
      return c.json(unavailable("The audio storage cannot be reached.", { database: "ok", migrations: "applied", storage: "unreachable" }), 503);
    }
    return c.json({ status: "ready", database: "ok", migrations: "applied", storage: "ok" });
  });
  return app;
}
