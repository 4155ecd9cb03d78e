import { z } from "zod";
import { Iso } from "./common.js";

export const WebhookRegisterBody = z
  .object({ hookUrl: z.string().trim().min(1, "is required").max(2000) })
  .strict()
  .meta({ id: "WebhookRegister" });

export const WebhookRegistered = z
  .object({
    status: z.literal("success"),
    id: z.string().meta({ description: "Extension: the registration's id, as the list shows it." }),
    secret: z.string().meta({ description: "Extension: Standard Webhooks signing secret (whsec_…)." }),
  })
  .meta({ id: "WebhookRegistered" });

export const Webhook = z
  .object({
    id: z.string(),
    hookUrl: z.string(),
    createdAt: Iso,
    disabled: z.boolean(),
    consecutiveFailures: z.number().int(),
  })
  .meta({ id: "Webhook" });
export const WebhookList = z.object({ webhooks: z.array(Webhook) }).meta({ id: "WebhookList" });

export const WebhookDelivery = z
  .object({
    id: z.string(),
    eventId: z.string().meta({ description: "The webhook-id header; the same on every attempt." }),
    type: z.string().meta({ example: "note.created" }),
    hookUrl: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: Iso,
    updatedAt: Iso,
    deliveredAt: Iso.nullable(),
    nextAttemptAt: Iso.nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const KnowledgeArticle = z
  .object({ id: z.string(), title: z.string(), content: z.string(), createdAt: Iso, updatedAt: Iso })
  .meta({ id: "KnowledgeArticle" });
export const KnowledgeArticleCreateBody = z
  .object({
    title: z.string().trim().min(1, "is required").max(500),
    content: z.string().min(1, "is required").max(500_000),
  })
  .strict()
  .meta({ id: "KnowledgeArticleCreate" });
