// Emitting workspace events: the event and its deliveries are written to the outbox
// (in the caller's transaction), and one delivery job per registration is queued.
import { randomBytes } from "node:crypto";
import type { Repositories } from "../db/repos/index.js";
import type { JobQueue } from "../jobs/queue.js";
import type { Clock } from "../core/clock.js";

export const DELIVER_WEBHOOK = "deliver-webhook";
export type EventType = "note.created" | "note.completed" | "note.updated";

export type EmitEvent = (workspaceId: string, type: EventType, payload: Record<string, unknown>) => Promise<void>;

export function createEventEmitter(repos: Repositories, queue: Pick<JobQueue, "enqueue">, now: Clock): EmitEvent {
  return async (workspaceId, type, payload) => {
    const t = now();
    const eventId = `evt_${randomBytes(16).toString("base64url")}`;
    const body = JSON.stringify({ type, eventId, workspaceId, timestamp: new Date(t).toISOString(), payload });
    const deliveries = await repos.webhookDeliveries.record({ id: eventId, workspaceId, type, body, createdAt: t });
    for (const deliveryId of deliveries) await queue.enqueue(DELIVER_WEBHOOK, { deliveryId }, { idempotencyKey: deliveryId });
  };
}

/** Sends a delivery again, as a new job (a finished job's key does not hold it back). */
export function createRedelivery(queue: Pick<JobQueue, "enqueue">) {
  return (deliveryId: string) => queue.enqueue(DELIVER_WEBHOOK, { deliveryId }, { idempotencyKey: deliveryId });
}
