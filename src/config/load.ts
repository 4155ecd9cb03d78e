// Builds the config from, in order of precedence: command-line flags, the
// environment, a JSON config file, and the schema's defaults.
import { ConfigError } from "../core/errors.js";
import fs from "node:fs";
import type { z } from "zod";
import os from "node:os";
import path from "node:path";
import { configSchema, type Config } from "./schema.js";

export type Env = Record<string, string | undefined>;

/** Flags as commander hands them over; only the ones given are set. */
export interface ConfigFlags {
  dataDir?: string;
  host?: string;
  port?: string | number;
  publicUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  rateLimit?: boolean;
  maxUploadBytes?: string | number;
  allowPrivateWebhooks?: boolean;
  allowPrivateAiUrls?: boolean;
  sttLanguage?: string;
  config?: string;
  sttEngine?: string;
  sttUrl?: string;
  sttModel?: string;
  modelPath?: string;
  llmUrl?: string;
  llmModel?: string;
  concurrency?: string | number;
  storage?: string;
  role?: string;
  database?: string;
  logLevel?: string;
  metrics?: boolean;
  metricsPort?: string | number;
}

export function defaultDataDir(env: Env): string {
  if (env.NOTULA_DATA_DIR) return env.NOTULA_DATA_DIR;
  const base = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share");
  return path.join(base, "notula");
}

// Defined in core, below every layer that reports a configuration mistake; exported here for the commands that load config.
export { ConfigError };

type Layer = Record<string, unknown>;

function int(value: string | number | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be a whole number, got "${value}".`);
  return n;
}

function fraction(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new ConfigError(`${name} must be a number from 0 to 1, got "${value}".`);
  return n;
}

function intList(value: string | undefined, name: string): number[] | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") return [];
  return value.split(",").map((v) => int(v.trim(), name)!);
}

function bool(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === "") return undefined;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${value}".`);
}

function envLayer(env: Env): Layer {
  const perMinute = {
    free: int(env.NOTULA_RATE_LIMIT_FREE, "NOTULA_RATE_LIMIT_FREE"),
    pro: int(env.NOTULA_RATE_LIMIT_PRO, "NOTULA_RATE_LIMIT_PRO"),
    enterprise: int(env.NOTULA_RATE_LIMIT_ENTERPRISE, "NOTULA_RATE_LIMIT_ENTERPRISE"),
  };
  return {
    dataDir: env.NOTULA_DATA_DIR,
    host: env.NOTULA_HOST,
    role: env.NOTULA_ROLE,
    logLevel: env.NOTULA_LOG_LEVEL,
    metrics: {
      enabled: bool(env.NOTULA_METRICS, "NOTULA_METRICS"),
      port: int(env.NOTULA_METRICS_PORT, "NOTULA_METRICS_PORT"),
    },
    database: env.NOTULA_DATABASE_URL,
    secretKey: env.NOTULA_SECRET_KEY,
    port: int(env.NOTULA_PORT, "NOTULA_PORT"),
    publicUrl: env.NOTULA_PUBLIC_URL,
    tls: { certFile: env.NOTULA_TLS_CERT, keyFile: env.NOTULA_TLS_KEY },
    rateLimit: {
      enabled: bool(env.NOTULA_RATE_LIMIT, "NOTULA_RATE_LIMIT"),
      perMinute,
      perAddressPerMinute: int(env.NOTULA_RATE_LIMIT_PER_ADDRESS, "NOTULA_RATE_LIMIT_PER_ADDRESS"),
    },
    maxUploadBytes: int(env.NOTULA_MAX_UPLOAD_BYTES, "NOTULA_MAX_UPLOAD_BYTES"),
    sweepIntervalMs: int(env.NOTULA_SWEEP_INTERVAL_MS, "NOTULA_SWEEP_INTERVAL_MS"),
    limits: {
      maxConcurrentUploads: int(env.NOTULA_MAX_CONCURRENT_UPLOADS, "NOTULA_MAX_CONCURRENT_UPLOADS"),
      uploadIdleTimeoutMs: int(env.NOTULA_UPLOAD_IDLE_TIMEOUT_MS, "NOTULA_UPLOAD_IDLE_TIMEOUT_MS"),
      requestTimeoutMs: int(env.NOTULA_REQUEST_TIMEOUT_MS, "NOTULA_REQUEST_TIMEOUT_MS"),
      recordingQuietSec: int(env.NOTULA_RECORDING_QUIET_SEC, "NOTULA_RECORDING_QUIET_SEC"),
    },
    // The S3 side also reads the AWS variables the SDKs share, so an existing set-up works.
    storage: {
      url: env.NOTULA_STORAGE_URL,
      endpoint: env.NOTULA_S3_ENDPOINT ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL,
      region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION,
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      sessionToken: env.AWS_SESSION_TOKEN,
    },
    allowPrivateWebhooks: bool(env.NOTULA_ALLOW_PRIVATE_WEBHOOKS, "NOTULA_ALLOW_PRIVATE_WEBHOOKS"),
    allowPrivateAiUrls: bool(env.NOTULA_ALLOW_PRIVATE_AI_URLS, "NOTULA_ALLOW_PRIVATE_AI_URLS"),
    transcription: {
      engine: env.NOTULA_STT_ENGINE,
      url: env.NOTULA_STT_URL,
      apiKey: env.NOTULA_STT_API_KEY,
      model: env.NOTULA_STT_MODEL,
      modelPath: env.NOTULA_WHISPER_MODEL,
      modelsUrl: env.NOTULA_MODELS_URL,
      language: env.NOTULA_STT_LANGUAGE,
    },
    summarization: {
      url: env.NOTULA_LLM_URL,
      apiKey: env.NOTULA_LLM_API_KEY,
      model: env.NOTULA_LLM_MODEL,
      contextTokens: int(env.NOTULA_LLM_CONTEXT_TOKENS, "NOTULA_LLM_CONTEXT_TOKENS"),
      timeoutMs: int(env.NOTULA_LLM_TIMEOUT_MS, "NOTULA_LLM_TIMEOUT_MS"),
    },
    embeddings: {
      engine: env.NOTULA_EMBEDDINGS,
      url: env.NOTULA_EMBEDDINGS_URL,
      apiKey: env.NOTULA_EMBEDDINGS_API_KEY,
      model: env.NOTULA_EMBEDDINGS_MODEL,
      dimensions: int(env.NOTULA_EMBEDDINGS_DIMENSIONS, "NOTULA_EMBEDDINGS_DIMENSIONS"),
      minSimilarity: fraction(env.NOTULA_SEARCH_MIN_SIMILARITY, "NOTULA_SEARCH_MIN_SIMILARITY"),
      indexAt: int(env.NOTULA_VECTOR_INDEX_AT, "NOTULA_VECTOR_INDEX_AT"),
    },
    oidc: env.NOTULA_OIDC_ISSUER
      ? {
          issuer: env.NOTULA_OIDC_ISSUER,
          clientId: env.NOTULA_OIDC_CLIENT_ID,
          clientSecret: env.NOTULA_OIDC_CLIENT_SECRET,
          name: env.NOTULA_OIDC_NAME,
        }
      : undefined,
    webhooks: {
      retryScheduleMs: intList(env.NOTULA_WEBHOOK_RETRY_SCHEDULE_MS, "NOTULA_WEBHOOK_RETRY_SCHEDULE_MS"),
      timeoutMs: int(env.NOTULA_WEBHOOK_TIMEOUT_MS, "NOTULA_WEBHOOK_TIMEOUT_MS"),
      disableAfter: int(env.NOTULA_WEBHOOK_DISABLE_AFTER, "NOTULA_WEBHOOK_DISABLE_AFTER"),
    },
    pipeline: {
      concurrency: int(env.NOTULA_PIPELINE_CONCURRENCY, "NOTULA_PIPELINE_CONCURRENCY"),
      maxAttempts: int(env.NOTULA_PIPELINE_MAX_ATTEMPTS, "NOTULA_PIPELINE_MAX_ATTEMPTS"),
      retryBaseMs: int(env.NOTULA_PIPELINE_RETRY_BASE_MS, "NOTULA_PIPELINE_RETRY_BASE_MS"),
      leaseMs: int(env.NOTULA_PIPELINE_LEASE_MS, "NOTULA_PIPELINE_LEASE_MS"),
    },
  };
}

function flagLayer(flags: ConfigFlags): Layer {
  return {
    dataDir: flags.dataDir,
    host: flags.host,
    role: flags.role,
    logLevel: flags.logLevel,
    // A metrics port alone turns metrics on: asking where to serve them is asking for them.
    metrics: {
      enabled: flags.metrics || flags.metricsPort !== undefined || undefined,
      port: int(flags.metricsPort, "--metrics-port"),
    },
    database: flags.database,
    port: int(flags.port, "--port"),
    publicUrl: flags.publicUrl,
    tls: { certFile: flags.tlsCert, keyFile: flags.tlsKey },
    // commander sets rateLimit=false only for --no-rate-limit; true is its default, not a choice.
    rateLimit: { enabled: flags.rateLimit === false ? false : undefined },
    maxUploadBytes: int(flags.maxUploadBytes, "--max-upload-bytes"),
    storage: { url: flags.storage },
    allowPrivateWebhooks: flags.allowPrivateWebhooks || undefined,
    allowPrivateAiUrls: flags.allowPrivateAiUrls || undefined,
    transcription: {
      engine: flags.sttEngine,
      url: flags.sttUrl,
      model: flags.sttModel,
      modelPath: flags.modelPath,
      language: flags.sttLanguage,
    },
    summarization: { url: flags.llmUrl, model: flags.llmModel },
    pipeline: { concurrency: int(flags.concurrency, "--concurrency") },
  };
}

function fileLayer(file: string, required: boolean): Layer {
  if (!fs.existsSync(file)) {
    if (required) throw new ConfigError(`Config file ${file} does not exist.`);
    return {};
  }
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Layer;
  } catch (err) {
    throw new ConfigError(`Config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Deep-merges layers; later layers win, undefined never overrides. */
function merge(...layers: Layer[]): Layer {
  const out: Layer = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      if (value && typeof value === "object" && !Array.isArray(value)) {
        const nested = merge((out[key] as Layer) ?? {}, value as Layer);
        // An object of only unset values must not hide the schema's default.
        if (Object.keys(nested).length) out[key] = nested;
      } else {
        out[key] = value;
      }
    }
  }
  return out;
}

/** The object schema inside default/prefault/optional wrappers, if there is one. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  let t: unknown = schema;
  for (let i = 0; i < 6 && t; i++) {
    const shape = (t as { shape?: Record<string, z.ZodType> }).shape;
    if (shape) return shape;
    t = (t as { def?: { innerType?: unknown } }).def?.innerType;
  }
  return null;
}

/** Keys of a config file the schema does not have, each with the keys it does: a typo must not pass silently. */
function unknownKeys(value: unknown, schema: z.ZodType, at: string): string[] {
  const shape = objectShape(schema);
  if (!shape || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (!(key in shape))
      out.push(`unknown key "${path}" (known${at ? ` in ${at}` : ""}: ${Object.keys(shape).join(", ")})`);
    else out.push(...unknownKeys(inner, shape[key], path));
  }
  return out;
}

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const envL = envLayer(env);
  const flagL = flagLayer(flags);
  const dataDir = path.resolve(flags.dataDir ?? defaultDataDir(env));
  const configFile = flags.config ?? env.NOTULA_CONFIG ?? path.join(dataDir, "config.json");
  const fileL = fileLayer(configFile, Boolean(flags.config ?? env.NOTULA_CONFIG));
  const unknown = unknownKeys(fileL, configSchema, "");
  if (unknown.length) throw new ConfigError(`Config file ${configFile}: ${unknown.join("; ")}.`);
  const merged = merge(fileL, envL, flagL, { dataDir });
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}
