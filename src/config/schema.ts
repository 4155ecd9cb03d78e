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
  /**
   * What this process does: all (the default: API, web app and background jobs), api
   * (requests only; jobs are queued for workers) or worker (background jobs only, with
   * /healthz and /readyz), so that each can scale on its own.
   */
  role: z.enum(["all", "api", "worker"]).default("all"),
  port: z.number().int().min(0).max(65535).default(8787),
  /** The least severe log lines written (pino levels); silent writes none. */
  logLevel: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * Prometheus metrics at /metrics: off by default, since route names and counts say
   * something about the workspace. On the main port when enabled, or on a port of its
   * own (same host) so that only the scraper's network reaches it.
   */
  metrics: z
    .object({
      enabled: z.boolean().default(false),
      port: z.number().int().min(0).max(65535).optional(),
    })
    .prefault({}),
  /** Base URL written into presigned URLs, invite links and OAuth metadata. */
  publicUrl: z.string().url().optional(),
  /** Serve https with this certificate and key (PEM files); without them, http (a reverse proxy adds TLS). */
  tls: z
    .object({ certFile: z.string().optional(), keyFile: z.string().optional() })
    .prefault({})
    .refine((t) => Boolean(t.certFile) === Boolean(t.keyFile), "give both the certificate and its key"),
  rateLimit: z
    .object({
      enabled: z.boolean().default(true),
      /** Requests per API key per minute, by workspace plan (REST and MCP together). */
      perMinute: plans.prefault({}),
      /** Requests per client address per minute to the OAuth endpoints and sign-in pages, and unauthenticated ones to /mcp. */
      perAddressPerMinute: z.number().int().positive().default(120),
    })
    .prefault({}),
  /** sqlite:/path/to/file.db or postgres://user:password@host/db; unset for <data dir>/notula.db. */
  database: z.string().min(1).optional(),
  /** The 32-byte base64 key that seals secrets and signs links; unset, <data dir>/secret.key. Replicas must share it. */
  secretKey: z.string().min(1).optional(),
  storage: z
    .object({
      /** Where recordings live: unset for <data dir>/audio, another directory, or s3://bucket/prefix (with ?endpoint=, ?region=, ?pathStyle=). */
      url: z.string().min(1).optional(),
      /** The S3 endpoint when the URL names none (MinIO, R2...); unset means AWS. */
      endpoint: z.string().url().optional(),
      region: z.string().min(1).optional(),
      /** Static credentials; unset, the AWS SDK's usual chain (profiles, instance roles, web identity) applies. */
      accessKeyId: z.string().min(1).optional(),
      secretAccessKey: z.string().min(1).optional(),
      sessionToken: z.string().min(1).optional(),
    })
    .prefault({}),
  maxJsonBodyBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  maxUploadBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  /** How often expired sign-in state, stale uploads, orphaned recordings and old job history are removed. */
  sweepIntervalMs: z
    .number()
    .int()
    .min(100)
    .default(10 * 60_000),
  limits: z
    .object({
      /** Audio uploads received at once through the server; one more gets 503 with Retry-After. */
      maxConcurrentUploads: z.number().int().positive().default(16),
      /** An upload that sends nothing for this long is cut (and may be sent again). */
      uploadIdleTimeoutMs: z.number().int().min(100).default(60_000),
      /** An API request (/v1) not answered in this time gets 504; uploads are bounded by their idle timeout instead. */
      requestTimeoutMs: z.number().int().min(100).default(60_000),
      /** A live recording that gets no piece for this long is stopped by the server, with what it received. */
      recordingQuietSec: z.number().int().min(5).max(3600).default(120),
    })
    .prefault({}),
  allowPrivateWebhooks: z.boolean().default(false),
  /** Whether a workspace's AI configuration may name loopback or private addresses (a local Ollama); the server's own flags always may. */
  allowPrivateAiUrls: z.boolean().default(false),
  transcription: z
    .object({
      /** auto: the OpenAI-compatible server if a URL is set, else a local engine that is installed. */
      engine: z.enum(["auto", "openai", "whisper", "sphinx"]).default("auto"),
      /** An OpenAI-compatible server's base URL, e.g. https://api.openai.com/v1 or http://localhost:8000/v1. */
      url: z.string().url().optional(),
      apiKey: z.string().optional(),
      model: z.string().default("whisper-1"),
      /** whisper.cpp model file for the local engine (else the one `notula models pull` fetched). */
      modelPath: z.string().optional(),
      /** Where whisper.cpp models are downloaded from (a mirror); Hugging Face's whisper.cpp repository unless set. */
      modelsUrl: z.string().url().optional(),
      /** The recordings' language (a code such as "de"), or unset/auto to let the engine detect it. */
      language: z.string().optional(),
    })
    .prefault({}),
  summarization: z
    .object({
      /** An OpenAI-compatible chat-completions base URL (OpenAI, Ollama, LM Studio, vLLM, OpenRouter). Unset: local extractive summary. */
      url: z.string().url().optional(),
      apiKey: z.string().optional(),
      model: z.string().default("gpt-4o-mini"),
      /** The model's context window in tokens; transcripts longer than it are summarized in parts. */
      contextTokens: z.number().int().min(1024).default(8192),
      /** How long one request to the model may take. */
      timeoutMs: z.number().int().min(1000).default(120_000),
    })
    .prefault({}),
  embeddings: z
    .object({
      /** auto: the OpenAI-compatible server if a URL is set, else the bundled local model. */
      engine: z.enum(["auto", "local", "openai", "none"]).default("auto"),
      url: z.string().url().optional(),
      apiKey: z.string().optional(),
      model: z.string().default("text-embedding-3-small"),
      dimensions: z.number().int().min(1).max(8192).default(1536),
      /** How similar (cosine, 0–1) a passage must be to a query to count as related by meaning; the model's calibrated floor unless set. */
      minSimilarity: z.number().min(0).max(1).optional(),
      /** Passages of one workspace from which its vectors are partitioned into cells (SQLite). */
      indexAt: z.number().int().min(100).default(20_000),
    })
    .prefault({}),
  /** Optional sign-in through an upstream OpenID Connect provider on the OAuth pages. */
  oidc: z
    .object({
      issuer: z.string().url(),
      clientId: z.string().min(1),
      clientSecret: z.string().min(1),
      name: z.string().default("single sign-on"),
    })
    .optional(),
  webhooks: z
    .object({
      /** Waits before each retry of a failed delivery: about 30 s, 2 min, 10 min, 1 h, 6 h. */
      retryScheduleMs: z
        .array(z.number().int().min(0))
        .min(0)
        .max(20)
        .default([30_000, 120_000, 600_000, 3_600_000, 21_600_000]),
      timeoutMs: z.number().int().min(100).default(10_000),
      /** A registration is disabled after this many events in a row failed for good. */
      disableAfter: z.number().int().min(1).default(10),
    })
    .prefault({}),
  pipeline: z
    .object({
      /** Recordings processed at the same time. */
      concurrency: z.number().int().min(1).max(16).default(1),
      maxAttempts: z.number().int().min(1).max(20).default(3),
      retryBaseMs: z.number().int().min(0).default(5_000),
      /** How long a worker holds a recording without a heartbeat: a dead worker's job is taken up after it. */
      leaseMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
    })
    .prefault({}),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

/** The configuration once the server knows its address: publicUrl always set, nothing changes after. */
export type ResolvedConfig = DeepReadonly<Config & { publicUrl: string }>;

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
