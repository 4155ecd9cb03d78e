import { Hono } from "hono";
import type { Metrics } from "../../core/metrics.js";

/** GET /metrics in Prometheus text format, unauthenticated like /healthz: it is enabled on purpose. */
export function metricsRoutes(metrics: Metrics) {
  const app = new Hono();
  app.get("/metrics", async (c) =>
    c.body(await metrics.registry.metrics(), 200, { "content-type": metrics.registry.contentType }),
  );
  return app;
}
