// The service's Prometheus metrics (prom-client), one registry per server: requests
// by route and status, jobs by kind and outcome, pipeline stages, webhook deliveries,
// and gauges read at scrape time (queue depth, database connections). Counting costs
// a map lookup, so it always runs; whether /metrics is served is configuration.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export type JobOutcome = "succeeded" | "retried" | "failed";
export type DeliveryOutcome = "delivered" | "retried" | "failed";

export interface Metrics {
  readonly registry: Registry;
  request(o: { method: string; route: string; status: number; durationSec: number }): void;
  job(kind: string, outcome: JobOutcome, durationSec: number): void;
  stage(stage: string, durationSec: number): void;
  webhookDelivery(outcome: DeliveryOutcome): void;
  /** Gauges whose values are read when scraped: the queue from the database, the pool from the driver. */
  readAtScrape(sources: {
    jobCounts?: () => Promise<{ kind: string; status: string; n: number }[]>;
    database?: () => Record<string, number>;
  }): void;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_SECONDS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

export function createMetrics(opts: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: "notula_" });
  const requests = new Counter({
    name: "notula_http_requests_total",
    help: "HTTP requests by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "notula_http_request_duration_seconds",
    help: "HTTP request latency by method and route pattern.",
    labelNames: ["method", "route"],
    buckets: SECONDS,
    registers: [registry],
  });
  const jobs = new Histogram({
    name: "notula_job_duration_seconds",
    help: "Background job attempts by kind and outcome.",
    labelNames: ["kind", "outcome"],
    buckets: JOB_SECONDS,
    registers: [registry],
  });
  const stages = new Histogram({
    name: "notula_pipeline_stage_duration_seconds",
    help: "Time spent in each processing stage of a recording.",
    labelNames: ["stage"],
    buckets: JOB_SECONDS,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: "notula_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome.",
    labelNames: ["outcome"],
    registers: [registry],
  });

  return {
    registry,
    request: (o) => {
      requests.inc({ method: o.method, route: o.route, status: String(o.status) });
      latency.observe({ method: o.method, route: o.route }, o.durationSec);
    },
    job: (kind, outcome, durationSec) => jobs.observe({ kind, outcome }, durationSec),
    stage: (stage, durationSec) => stages.observe({ stage }, durationSec),
    webhookDelivery: (outcome) => deliveries.inc({ outcome }),
    readAtScrape({ jobCounts, database }) {
      if (jobCounts)
        new Gauge({
          name: "notula_jobs",
          help: "Jobs waiting or running, by kind and status.",
          labelNames: ["kind", "status"],
          registers: [registry],
          async collect() {
            this.reset();
            for (const r of await jobCounts()) this.set({ kind: r.kind, status: r.status }, r.n);
          },
        });
      if (database)
        new Gauge({
          name: "notula_database",
          help: "Database figures: connections (total, idle, waiting) of each pool on PostgreSQL (pool_, generic_pool_, job_pool_); file and WAL bytes on SQLite.",
          labelNames: ["figure"],
          registers: [registry],
          collect() {
            this.reset();
            for (const [figure, value] of Object.entries(database())) this.set({ figure }, value);
          },
        });
    },
  };
}
