// Delivers one event to one registration, as a job: signed, 10 s timeout, no
// redirects; retried on network errors, timeouts, 408, 429 and 5xx on the schedule;
// given up and logged otherwise. Registrations that keep failing are disabled.
import { z } from "zod";
import type { Repositories } from "../db/repos/index.js";
import { PermanentJobError, type WorkerDefinition } from "../jobs/queue.js";
import { defineJob } from "../jobs/job.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { Metrics } from "../core/metrics.js";
import type { Net } from "../net/outbound.js";
import pkg from "../../package.json" with { type: "json" };
import type { SecretBox } from "../core/secret-box.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import { connectionCause, PrivateAddressError, type Outbound } from "../net/outbound.js";
import { signPayload } from "./signing.js";

export interface DeliveryDeps {
  repos: Repositories;
  secrets: SecretBox;
  /** The webhooks' way out (net/outbound.ts). */
  outbound: Outbound;
  now: Clock;
  retryScheduleMs: number[];
  timeoutMs: number;
  disableAfter: number;
  userAgent: string;
  logger: Logger;
  /** Told how each attempt ended (metrics). */
  onAttempt?: (outcome: "delivered" | "retried" | "failed") => void;
}

const payload = z.object({ deliveryId: z.string() });

declare module "../jobs/job.js" {
  interface JobPayloads {
    "deliver-webhook": z.infer<typeof payload>;
  }
}
const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(invalid URL)";
  }
}

function deliveryWorker(d: DeliveryDeps): Omit<WorkerDefinition<z.infer<typeof payload>>, "kind" | "payload"> {
  const { repos, now } = d;
  return {
    concurrency: 4,
    leaseMs: d.timeoutMs * 3,
    timeoutMs: d.timeoutMs * 2,
    maxAttempts: d.retryScheduleMs.length + 1,
    backoffMs: (attempt) => d.retryScheduleMs[attempt - 1] ?? d.retryScheduleMs[d.retryScheduleMs.length - 1] ?? 0,
    async handle({ deliveryId }, { job }) {
      const row = await repos.webhookDeliveries.load(deliveryId);
      if (!row || row.delivery.status !== "pending") return;
      if (row.webhook.disabledAt !== null) throw new PermanentJobError("The registration is disabled.");
      const timestamp = Math.floor(now() / 1000);
      // Counted over the delivery's life: a redelivery adds to the attempts before it.
      const attempts = row.delivery.attempts + 1;
      const record = async (fields: { lastStatusCode?: number | null; lastError?: string | null }) =>
        await repos.webhookDeliveries.update(deliveryId, { attempts, updatedAt: now(), ...fields });
      // One line per attempt: ids, the receiver's host, the outcome. Never the full URL:
      // automation platforms put their secret in the path.
      const started = performance.now();
      const attemptLog = (
        outcome: "delivered" | "retried" | "failed",
        fields: { status?: number; reason?: string },
      ) => {
        d.logger.info(
          {
            delivery: deliveryId,
            webhook: row.webhook.id,
            event: row.event.id,
            host: hostOf(row.webhook.hookUrl),
            attempt: attempts,
            outcome,
            durationMs: Math.round(performance.now() - started),
            ...fields,
          },
          "webhook attempt",
        );
        d.onAttempt?.(outcome);
      };
      let status: number;
      try {
        const res = await d.outbound.fetch(row.webhook.hookUrl, {
          method: "POST",
          body: row.event.body,
          redirect: "manual",
          signal: AbortSignal.timeout(d.timeoutMs),
          headers: {
            "content-type": "application/json",
            "user-agent": d.userAgent,
            "webhook-id": row.event.id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": signPayload(
              d.secrets.open(row.webhook.secretEnc),
              row.event.id,
              timestamp,
              row.event.body,
            ),
          },
        });
        status = res.status;
        await res.body?.cancel().catch(() => {});
      } catch (err) {
        const cause = connectionCause(err);
        if (cause instanceof PrivateAddressError) {
          await record({
            lastStatusCode: null,
            lastError: `${cause.message}; refused (start the server with --allow-private-webhooks to allow it)`,
          });
          attemptLog("failed", { reason: cause.message });
          throw new PermanentJobError(cause.message);
        }
        const timedOut = (err as Error).name === "TimeoutError" || (err as Error).name === "AbortError";
        const message = timedOut
          ? `no answer within ${d.timeoutMs} ms`
          : `network error: ${(cause as Error)?.message ?? (err as Error).message}`;
        await record({ lastStatusCode: null, lastError: message });
        attemptLog(job.attempts >= job.maxAttempts ? "failed" : "retried", { reason: message });
        throw new Error(message);
      }
      if (status >= 200 && status < 300) {
        await repos.webhookDeliveries.update(deliveryId, {
          status: "delivered",
          attempts,
          lastStatusCode: status,
          lastError: null,
          deliveredAt: now(),
          nextAttemptAt: null,
          updatedAt: now(),
        });
        await repos.webhookDeliveries.recordSuccess(row.webhook.id);
        attemptLog("delivered", { status });
        return;
      }
      const message =
        status >= 300 && status < 400 ? `answered ${status} (redirects are not followed)` : `answered ${status}`;
      await record({ lastStatusCode: status, lastError: message });
      const retried = RETRYABLE(status) && job.attempts < job.maxAttempts;
      attemptLog(retried ? "retried" : "failed", { status });
      if (!RETRYABLE(status)) throw new PermanentJobError(message);
      await repos.webhookDeliveries.update(deliveryId, {
        nextAttemptAt: now() + (d.retryScheduleMs[job.attempts - 1] ?? 0),
      });
      throw new Error(message);
    },
    async onExhausted({ deliveryId }, error) {
      const row = await repos.webhookDeliveries.load(deliveryId);
      if (!row) return;
      await repos.webhookDeliveries.update(deliveryId, {
        status: "failed",
        nextAttemptAt: null,
        lastError: row.delivery.lastError ?? error.message,
        updatedAt: now(),
      });
      if (await repos.webhookDeliveries.recordFailure(row.webhook.id, d.disableAfter, now()))
        d.logger.warn(
          { webhook: row.webhook.id, failedEvents: d.disableAfter },
          "webhook disabled after failing events in a row",
        );
    },
  };
}

/**
 * Delivers one event to one registration; a redelivery is a new job (a finished job's
 * key does not hold it back), while one waits or runs no second is queued.
 */
export const deliverWebhookJob = defineJob({
  kind: "deliver-webhook",
  payload,
  key: (p) => p.deliveryId,
  worker: (p: {
    repos: Repositories;
    secrets: SecretBox;
    net: Net;
    now: Clock;
    config: Pick<ResolvedConfig, "webhooks">;
    logger: Logger;
    metrics: Pick<Metrics, "webhookDelivery">;
  }) =>
    deliveryWorker({
      repos: p.repos,
      secrets: p.secrets,
      outbound: p.net.for("webhooks"),
      now: p.now,
      retryScheduleMs: [...p.config.webhooks.retryScheduleMs],
      timeoutMs: p.config.webhooks.timeoutMs,
      disableAfter: p.config.webhooks.disableAfter,
      userAgent: `notula-webhooks/${pkg.version}`,
      logger: p.logger.child({ component: "webhooks" }),
      onAttempt: p.metrics.webhookDelivery,
    }),
});
