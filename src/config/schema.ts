import { z } from "zod";

const plans = z.object({
  free: z.number().int().positive().default(60),
  pro: z.number().int().positive().default(120),
  enterprise: z.number().int().positive().default(300),
});

/** The one typed configuration of the service. Nothing else reads process.env. */
export const configSchema = z.object({
  dataDir: z.string().min(1),
  host: z.string().min(1).default("127.0.0.1"),
  port: z.number().int().min(0).max(65535).default(8787),
  /** Base URL written into presigned URLs, invite links and OAuth metadata. */
  publicUrl: z.string().url().optional(),
  rateLimit: z
    .object({
      enabled: z.boolean().default(true),
      /** Requests per API key per minute, by workspace plan. */
      perMinute: plans.prefault({}),
    })
    .prefault({}),
  maxJsonBodyBytes: z.number().int().positive().default(1024 * 1024),
  maxUploadBytes: z.number().int().positive().default(2 * 1024 ** 3),
  allowPrivateWebhooks: z.boolean().default(false),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
