// Registration of automation-platform webhooks. Delivery lives in src/webhooks/.
import { randomBytes } from "node:crypto";
import type { Repositories } from "../db/repos/index.js";
import { newId } from "../core/ids.js";
import { BadRequestError, ConflictError, NotFoundError } from "../core/errors.js";
import type { Outbound } from "../net/outbound.js";
import { paginate } from "./pagination.js";
import type { Principal } from "../core/principal.js";
import { ownedPolicy } from "../core/access.js";
import type { WebhookRow } from "../db/repos/webhooks.js";
import type { SecretBox } from "../core/secret-box.js";
import { iso, type Clock } from "../core/clock.js";
import type { Jobs } from "../jobs/job.js";

export function createWebhookService(
  repos: Repositories,
  secrets: SecretBox,
  now: Clock,
  options: { outbound: Outbound; jobs: Jobs },
) {
  async function validUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new BadRequestError(`hookUrl: "${raw}" is not a valid URL.`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new BadRequestError("hookUrl: must be an http or https URL.");
    if (url.username || url.password) throw new BadRequestError("hookUrl: must not carry a user name or password.");
    const priv = await options.outbound.privateAddressesOf(url);
    if (priv.length)
      throw new BadRequestError(
        `hookUrl: ${url.hostname} is a private or loopback address (${priv.join(", ")}); start the server with --allow-private-webhooks to allow it.`,
      );
    return url.toString();
  }

  /** A registration is its maker's (an admin's too): anyone else does not see it. */
  const mine = (p: Principal, w: WebhookRow) =>
    ownedPolicy.manage(p, { workspaceId: w.workspaceId, ownerUserId: w.createdByUserId });
  /** Admins see every registration; a member those they made (undefined: no filter). */
  const ownerFilter = (p: Principal) =>
    ownedPolicy.manage(p, { workspaceId: p.workspaceId, ownerUserId: null }) ? undefined : p.userId;

  return {
    async register(p: Principal, hookUrl: string) {
      const url = await validUrl(hookUrl);
      // The same URL again gives back its one registration and secret, but only to whoever
      // may manage it: the secret is what lets a receiver trust what it is sent.
      const existing = await repos.webhooks.find(p.workspaceId, url);
      if (existing && !mine(p, existing))
        throw new ConflictError("hookUrl: another member has registered this URL; ask them or an admin.");
      const secret = `whsec_${randomBytes(24).toString("base64")}`;
      const row = await repos.webhooks.upsert({
        id: newId("whk"),
        workspaceId: p.workspaceId,
        hookUrl: url,
        secretEnc: secrets.seal(secret),
        createdByUserId: p.userId,
        createdAt: now(),
        disabledAt: null,
        consecutiveFailures: 0,
      });
      // Registering the same URL again keeps the one registration and its secret.
      return { status: "success" as const, id: row.id, secret: secrets.open(row.secretEnc) };
    },

    async list(p: Principal) {
      return (await repos.webhooks.list(p.workspaceId))
        .filter((w) => mine(p, w))
        .map((w) => ({
          id: w.id,
          hookUrl: w.hookUrl,
          createdAt: iso(w.createdAt),
          disabled: w.disabledAt !== null,
          consecutiveFailures: w.consecutiveFailures,
        }));
    },

    async deliveries(p: Principal, limit: number, offset: number) {
      const rows = await repos.webhookDeliveries.list(p.workspaceId, limit, offset, ownerFilter(p));
      const { page, pagination } = paginate(rows, limit, offset);
      return {
        items: page.map(({ delivery: d, type, hookUrl }) => ({
          id: d.id,
          eventId: d.eventId,
          type,
          hookUrl,
          status: d.status,
          attempts: d.attempts,
          lastStatusCode: d.lastStatusCode,
          lastError: d.lastError,
          createdAt: iso(d.createdAt),
          updatedAt: iso(d.updatedAt),
          deliveredAt: d.deliveredAt ? iso(d.deliveredAt) : null,
          nextAttemptAt: d.nextAttemptAt ? iso(d.nextAttemptAt) : null,
        })),
        pagination,
      };
    },

    /**
     * Sends a delivered or failed event again. A registration that was disabled after
     * failing is back in service: the admin asking for this is saying the receiver is fixed.
     */
    async redeliver(p: Principal, deliveryId: string) {
      const found = await repos.webhookDeliveries.get(p.workspaceId, deliveryId);
      if (!found || !mine(p, found.webhook)) throw new NotFoundError(`No webhook delivery ${deliveryId}.`);
      if (found.delivery.status === "pending")
        throw new ConflictError(`Delivery ${deliveryId} is still being attempted.`);
      await repos.transaction(async () => {
        if (found.webhook.disabledAt !== null) await repos.webhooks.enable(found.webhook.id);
        await repos.webhookDeliveries.update(deliveryId, {
          status: "pending",
          nextAttemptAt: now(),
          deliveredAt: null,
          updatedAt: now(),
        });
      });
      await options.jobs.enqueue("deliver-webhook", { deliveryId });
      return { status: "success" as const };
    },

    async remove(p: Principal, hookUrl: string) {
      let normalized = hookUrl;
      try {
        normalized = new URL(hookUrl).toString();
      } catch {
        /* not a URL: cannot be registered either, so it is simply not found */
      }
      const existing = await repos.webhooks.find(p.workspaceId, normalized);
      if (!existing || !mine(p, existing) || !(await repos.webhooks.deleteByUrl(p.workspaceId, normalized)))
        throw new NotFoundError(`No webhook registered for ${hookUrl}.`);
      return { status: "success" as const };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
