import type Database from "better-sqlite3";
import { Hono } from "hono";
import { migrationsApplied } from "../../db/open.js";

/** Liveness and readiness, without authentication (for process supervisors and load balancers). */
export function healthRoutes(sqlite: Database.Database) {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", (c) => {
    try {
      sqlite.prepare("SELECT 1").get();
      if (!migrationsApplied(sqlite))
        return c.json({ status: "unavailable", error: { code: "service_unavailable", message: "Database migrations are not applied." } }, 503);
      return c.json({ status: "ready", database: "ok", migrations: "applied" });
    } catch {
      return c.json({ status: "unavailable", error: { code: "service_unavailable", message: "The database cannot be reached." } }, 503);
    }
  });
  return app;
}
