// Every setting of the service, declared once: its place in the configuration, the
// environment variables and the `notula serve` flag that set it, its type and default
// (the zod schema) and what it does. The config schema, the environment and flag
// layers, `notula serve --help` and docs/configuration.md are all made from this table
// (config/schema.ts, config/load.ts, cli/commands/serve, scripts/docs).
import { z } from "zod";
import type { PlanName } from "../core/principal.js";
import { group, setting } from "./setting.js";
import { mailSettings, webhookSettings } from "./delivery-settings.js";
import { calendarSettings, limitSettings } from "./limit-settings.js";
import { watchSettings } from "./watch-settings.js";

const port = () => z.number().int().min(0).max(65535);

/** Requests per key per minute by plan, unless configured. */
const PER_MINUTE: Record<PlanName, number> = { free: 60, pro: 120, enterprise: 300 };

export const SETTINGS = {
  dataDir: setting(z.string().min(1), {
    env: ["NOTULA_DATA_DIR"],
    flag: "--data-dir <dir>",
    doc: "Where notula.db, audio/, the secret key and config.json live.",
    defaultDoc: "$XDG_DATA_HOME/notula, else ~/.local/share/notula",
  }),
  configFile: setting(z.string().min(1).optional(), {
    env: ["NOTULA_CONFIG"],
    flag: "--config <file>",
    doc: "A JSON file of these settings (keys as in docs/reference/configuration.md); flags and the environment override it.",
    defaultDoc: "<data-dir>/config.json, when it exists",
    notInFile: true,
  }),
  host: setting(z.string().min(1).default("127.0.0.1"), {
    env: ["NOTULA_HOST"],
    flag: "--host <host>",
    doc: "The interface to listen on.",
  }),
  role: setting(z.enum(["all", "api", "worker"]).default("all"), {
    env: ["NOTULA_ROLE"],
    flag: "--role <role>",
    doc: "What this process does: all (API, web app and background jobs), api (requests only; jobs are queued for workers) or worker (background jobs only, with /healthz and /readyz), so that each can scale on its own.",
  }),
  port: setting(port().default(8787), {
    env: ["NOTULA_PORT"],
    flag: "--port <port>",
    doc: "The port to listen on; 0 picks a free one.",
  }),
  logLevel: setting(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"), {
    env: ["NOTULA_LOG_LEVEL"],
    flag: "--log-level <level>",
    doc: "The least severe log lines written (JSON on stderr); silent writes none.",
  }),
  metrics: group(
    {
      enabled: setting(z.boolean().optional(), {
        env: ["NOTULA_METRICS"],
        flag: "--metrics",
        doc: "Serve Prometheus metrics at /metrics. Off by default, since route names and counts say something about the workspace.",
        defaultDoc: "on when a metrics port is set, else off",
      }),
      port: setting(port().optional(), {
        env: ["NOTULA_METRICS_PORT"],
        flag: "--metrics-port <port>",
        doc: "Serve /metrics on this port of the same host instead of the main one, so that only the scraper's network reaches it. Setting it turns metrics on.",
      }),
    },
    // Asking where to serve metrics is asking for them.
    { finish: (m) => ({ ...m, enabled: m.enabled ?? m.port !== undefined }) },
  ),
  publicUrl: setting(z.string().url().optional(), {
    env: ["NOTULA_PUBLIC_URL"],
    flag: "--public-url <url>",
    doc: "The base URL clients reach the server at, written into presigned URLs, invite links and OAuth metadata.",
    defaultDoc: "http(s)://HOST:PORT",
  }),
  tls: group(
    {
      certFile: setting(z.string().optional(), {
        env: ["NOTULA_TLS_CERT"],
        flag: "--tls-cert <file>",
        doc: "Serve https with this certificate (PEM); browsers record only on https or localhost. Without it, http (a reverse proxy adds TLS).",
      }),
      keyFile: setting(z.string().optional(), {
        env: ["NOTULA_TLS_KEY"],
        flag: "--tls-key <file>",
        doc: "The certificate's private key (PEM).",
      }),
    },
    {
      check: {
        rule: (t) => Boolean(t.certFile) === Boolean(t.keyFile),
        message: "give both the certificate and its key",
      },
    },
  ),
  rateLimit: group({
    enabled: setting(z.boolean().default(true), {
      env: ["NOTULA_RATE_LIMIT"],
      flag: "--no-rate-limit",
      doc: "Request limits per API key and per address.",
      flagDoc: "Turn off the request limits per API key and per address (NOTULA_RATE_LIMIT=off).",
    }),
    perMinute: group({
      free: planLimit("free"),
      pro: planLimit("pro"),
      enterprise: planLimit("enterprise"),
    } satisfies Record<PlanName, unknown>),
    perAddressPerMinute: setting(z.number().int().positive().default(120), {
      env: ["NOTULA_RATE_LIMIT_PER_ADDRESS"],
      doc: "Requests per client address per minute to the OAuth endpoints and sign-in pages, and unauthenticated ones to /mcp.",
    }),
  }),
  database: setting(z.string().min(1).optional(), {
    env: ["NOTULA_DATABASE_URL"],
    flag: "--database <url>",
    doc: "sqlite:/path/to/file.db, or postgres://user:password@host/db for several replicas.",
    defaultDoc: "<data-dir>/notula.db",
  }),
  databasePool: group({
    size: setting(z.number().int().min(1).max(200).default(10), {
      env: ["NOTULA_DATABASE_POOL_SIZE"],
      doc: "PostgreSQL: connections per replica for requests and the work they start (and half as many again for the statements that keep one plan). A request holds one for a statement or two; with 10, on 2 cores, at most 2 requests were seen waiting for one while 3,000 meetings were summarised and indexed (docs/benchmarks.md, ingest). Replicas × (this × 1.5 + the job pool + 1) must fit PostgreSQL's max_connections.",
    }),
    jobs: setting(z.number().int().min(1).max(50).default(2), {
      env: ["NOTULA_DATABASE_JOB_POOL_SIZE"],
      doc: "PostgreSQL: connections per replica of their own for the job queue's claims, leases and results, so that polling for work never takes a connection a request waits for.",
    }),
  }),
  secretKey: setting(z.string().min(1).optional(), {
    env: ["NOTULA_SECRET_KEY"],
    doc: "The 32-byte base64 key that seals secrets and signs links. Replicas must share it.",
    defaultDoc: "<data-dir>/secret.key, made on first start",
    secret: true,
  }),
  storage: group({
    url: setting(z.string().min(1).optional(), {
      env: ["NOTULA_STORAGE_URL"],
      flag: "--storage <url>",
      doc: "Where recordings live: a directory, or s3://bucket/prefix (with ?endpoint=, ?region=, ?pathStyle=true).",
      defaultDoc: "<data-dir>/audio",
    }),
    // The S3 side also reads the AWS variables the SDKs share, so an existing set-up works.
    endpoint: setting(z.string().url().optional(), {
      env: ["NOTULA_S3_ENDPOINT", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"],
      doc: "The S3 endpoint when the storage URL names none (MinIO, R2…).",
      defaultDoc: "AWS",
    }),
    region: setting(z.string().min(1).optional(), {
      env: ["AWS_REGION", "AWS_DEFAULT_REGION"],
      doc: "The S3 region.",
    }),
    accessKeyId: setting(z.string().min(1).optional(), {
      env: ["AWS_ACCESS_KEY_ID"],
      doc: "Static S3 credentials; unset, the AWS SDK's usual chain (profiles, instance roles, web identity) applies.",
    }),
    secretAccessKey: setting(z.string().min(1).optional(), {
      env: ["AWS_SECRET_ACCESS_KEY"],
      doc: "The static credentials' secret.",
      secret: true,
    }),
    sessionToken: setting(z.string().min(1).optional(), {
      env: ["AWS_SESSION_TOKEN"],
      doc: "The static credentials' session token.",
      secret: true,
    }),
  }),
  maxJsonBodyBytes: setting(
    z
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    { doc: "The largest JSON request body; a larger one gets 413." },
  ),
  maxUploadBytes: setting(
    z
      .number()
      .int()
      .positive()
      .default(2 * 1024 ** 3),
    {
      env: ["NOTULA_MAX_UPLOAD_BYTES"],
      flag: "--max-upload-bytes <n>",
      doc: "The largest audio upload accepted, in bytes.",
    },
  ),
  sweepIntervalMs: setting(
    z
      .number()
      .int()
      .min(100)
      .default(10 * 60_000),
    {
      env: ["NOTULA_SWEEP_INTERVAL_MS"],
      doc: "How often expired sign-in state, stale uploads, orphaned recordings and old job history are removed.",
    },
  ),
  limits: limitSettings,
  calendars: calendarSettings,
  watch: watchSettings,
  allowPrivateWebhooks: setting(z.boolean().default(false), {
    env: ["NOTULA_ALLOW_PRIVATE_WEBHOOKS"],
    flag: "--allow-private-webhooks",
    doc: "Allow webhook URLs on loopback or private networks.",
  }),
  allowPrivateCalendars: setting(z.boolean().default(false), {
    env: ["NOTULA_ALLOW_PRIVATE_CALENDARS"],
    flag: "--allow-private-calendars",
    doc: "Allow calendar addresses (ICS, CalDAV) on loopback or private networks: a Nextcloud or Radicale on the LAN.",
  }),
  allowPrivateSmtp: setting(z.boolean().default(false), {
    env: ["NOTULA_ALLOW_PRIVATE_SMTP"],
    flag: "--allow-private-smtp",
    doc: "Let a workspace's admins point its mail at an SMTP server on loopback or a private network (a local relay); the server's own NOTULA_SMTP_URL always may.",
  }),
  allowPrivateAiUrls: setting(z.boolean().default(false), {
    env: ["NOTULA_ALLOW_PRIVATE_AI_URLS"],
    flag: "--allow-private-ai-urls",
    doc: "Let workspaces point their AI configuration at loopback or private addresses (a local Ollama); the server's own settings always may.",
  }),
  workspaceLocalModels: setting(z.boolean().default(true), {
    env: ["NOTULA_WORKSPACE_LOCAL_MODELS"],
    flag: "--no-workspace-local-models",
    doc: "Whether a workspace's admins may set up this server's local models (the whisper engine, the speaker models, the language model: downloads to its disk) from the web app, and choose them for their workspace (its CPU).",
    flagDoc:
      "Keep the local models to the operator: only `notula models pull` sets them up, and only the server's own settings choose them (NOTULA_WORKSPACE_LOCAL_MODELS=off).",
  }),
  transcription: group({
    engine: setting(z.enum(["auto", "openai", "whisper", "sphinx"]).default("auto"), {
      env: ["NOTULA_STT_ENGINE"],
      flag: "--stt-engine <engine>",
      doc: "Speech to text. auto: the OpenAI-compatible server if a URL is set, else a local engine that is installed.",
    }),
    url: setting(z.string().url().optional(), {
      env: ["NOTULA_STT_URL"],
      flag: "--stt-url <url>",
      doc: "An OpenAI-compatible transcription server's base URL, e.g. https://api.openai.com/v1.",
    }),
    apiKey: setting(z.string().optional(), {
      env: ["NOTULA_STT_API_KEY"],
      doc: "The transcription server's API key.",
      secret: true,
    }),
    model: setting(z.string().default("whisper-1"), {
      env: ["NOTULA_STT_MODEL"],
      flag: "--stt-model <name>",
      doc: "The transcription model on that server.",
    }),
    modelPath: setting(z.string().optional(), {
      env: ["NOTULA_WHISPER_MODEL"],
      flag: "--model-path <file>",
      doc: "A whisper.cpp model file for the local engine.",
      defaultDoc: "the one `notula models pull` fetched",
    }),
    modelsUrl: setting(z.string().url().optional(), {
      env: ["NOTULA_MODELS_URL"],
      doc: "Where whisper.cpp models are downloaded from (a mirror).",
      defaultDoc: "Hugging Face's whisper.cpp repository",
    }),
    whisperNice: setting(z.number().int().min(0).max(19).default(10), {
      env: ["NOTULA_WHISPER_NICE"],
      doc: "How far below the server's own priority the whisper engine runs (a Linux nice value, 0 to 19). 10 puts requests first on a shared machine; 0 gives whisper the cores on an equal footing with everything else.",
    }),
    language: setting(z.string().optional(), {
      env: ["NOTULA_STT_LANGUAGE"],
      flag: "--stt-language <code>",
      doc: "The recordings' language (a code such as de); unset or auto lets the engine detect it.",
    }),
  }),
  summarization: group({
    engine: setting(z.enum(["auto", "openai", "local", "extractive"]).default("auto"), {
      env: ["NOTULA_LLM_ENGINE"],
      flag: "--llm-engine <engine>",
      doc: "What writes summaries, notes and answers. auto: the OpenAI-compatible server if a URL is set, else the local model once it is set up, else the offline extracts.",
    }),
    modelPath: setting(z.string().optional(), {
      env: ["NOTULA_LLM_MODEL_PATH"],
      flag: "--llm-model-path <file>",
      doc: "A GGUF language model file for the local engine.",
      defaultDoc: "the one set up in Settings → AI or by `notula models pull llm`",
    }),
    localContextTokens: setting(z.number().int().min(512).default(4096), {
      env: ["NOTULA_LLM_LOCAL_CONTEXT_TOKENS"],
      doc: "The local model's context window in tokens (its own when smaller); more reads longer parts at once but needs more memory.",
    }),
    localThreads: setting(z.number().int().min(1).max(256).optional(), {
      env: ["NOTULA_LLM_LOCAL_THREADS"],
      doc: "CPU threads the local model answers with (one answer at a time, the others wait in line).",
      defaultDoc: "all cores but one",
    }),
    localMaxTokens: setting(z.number().int().min(16).max(8192).default(1024), {
      env: ["NOTULA_LLM_LOCAL_MAX_TOKENS"],
      doc: "The longest answer the local model writes, in tokens; on a CPU each token takes a moment, so this bounds a note's time.",
    }),
    url: setting(z.string().url().optional(), {
      env: ["NOTULA_LLM_URL"],
      flag: "--llm-url <url>",
      doc: "An OpenAI-compatible chat-completions base URL (OpenAI, Ollama, LM Studio, vLLM, OpenRouter) for summaries and enhanced notes.",
      defaultDoc: "none: notes are written offline",
    }),
    apiKey: setting(z.string().optional(), {
      env: ["NOTULA_LLM_API_KEY"],
      doc: "The chat server's API key.",
      secret: true,
    }),
    model: setting(z.string().default("gpt-4o-mini"), {
      env: ["NOTULA_LLM_MODEL"],
      flag: "--llm-model <name>",
      doc: "The summary model.",
    }),
    contextTokens: setting(z.number().int().min(1024).default(8192), {
      env: ["NOTULA_LLM_CONTEXT_TOKENS"],
      doc: "The model's context window in tokens; longer meetings are read part by part.",
    }),
    timeoutMs: setting(z.number().int().min(1000).default(120_000), {
      env: ["NOTULA_LLM_TIMEOUT_MS"],
      doc: "How long one request to the model may take.",
    }),
  }),
  embeddings: group({
    engine: setting(z.enum(["auto", "local", "openai", "none"]).default("auto"), {
      env: ["NOTULA_EMBEDDINGS"],
      doc: "Search by meaning. auto: the OpenAI-compatible server if a URL is set, else the bundled local model; none turns it off.",
    }),
    url: setting(z.string().url().optional(), {
      env: ["NOTULA_EMBEDDINGS_URL"],
      doc: "An OpenAI-compatible /embeddings server's base URL.",
    }),
    apiKey: setting(z.string().optional(), {
      env: ["NOTULA_EMBEDDINGS_API_KEY"],
      doc: "The embeddings server's API key.",
      secret: true,
    }),
    model: setting(z.string().default("text-embedding-3-small"), {
      env: ["NOTULA_EMBEDDINGS_MODEL"],
      doc: "The embedding model on that server.",
    }),
    dimensions: setting(z.number().int().min(1).max(8192).default(1536), {
      env: ["NOTULA_EMBEDDINGS_DIMENSIONS"],
      doc: "The embedding model's dimensions.",
    }),
    minSimilarity: setting(z.number().min(0).max(1).optional(), {
      env: ["NOTULA_SEARCH_MIN_SIMILARITY"],
      doc: "How similar (cosine, 0–1) a passage must be to a query to count as related by meaning.",
      defaultDoc: "the model's calibrated floor",
    }),
    indexAt: setting(z.number().int().min(100).default(20_000), {
      env: ["NOTULA_VECTOR_INDEX_AT"],
      doc: "Passages of one workspace from which its vectors are partitioned into cells.",
    }),
  }),
  oidc: group(
    {
      issuer: setting(z.string().url(), {
        env: ["NOTULA_OIDC_ISSUER"],
        doc: "Sign-in through an upstream OpenID Connect provider: its issuer URL. Setting it asks for the client id and secret too.",
      }),
      clientId: setting(z.string().min(1), { env: ["NOTULA_OIDC_CLIENT_ID"], doc: "The client id notula has there." }),
      clientSecret: setting(z.string().min(1), {
        env: ["NOTULA_OIDC_CLIENT_SECRET"],
        doc: "The client's secret.",
        secret: true,
      }),
      name: setting(z.string().default("single sign-on"), {
        env: ["NOTULA_OIDC_NAME"],
        doc: "The provider's name on the sign-in button.",
      }),
    },
    { optional: true },
  ),
  webhooks: webhookSettings,
  mail: mailSettings,
  pipeline: group({
    concurrency: setting(z.number().int().min(1).max(16).default(1), {
      env: ["NOTULA_PIPELINE_CONCURRENCY"],
      flag: "--concurrency <n>",
      doc: "Recordings processed at the same time.",
    }),
    maxAttempts: setting(z.number().int().min(1).max(20).default(3), {
      env: ["NOTULA_PIPELINE_MAX_ATTEMPTS"],
      doc: "How often a recording's processing is tried before it fails for good.",
    }),
    retryBaseMs: setting(z.number().int().min(0).default(5_000), {
      env: ["NOTULA_PIPELINE_RETRY_BASE_MS"],
      doc: "The first wait before a failed step is tried again (it doubles).",
    }),
    leaseMs: setting(z.number().int().min(1_000).max(3_600_000).default(60_000), {
      env: ["NOTULA_PIPELINE_LEASE_MS"],
      doc: "How long a worker holds a recording without a heartbeat: a dead worker's job is taken up after it.",
    }),
  }),
} as const;

function planLimit(plan: PlanName) {
  return setting(z.number().int().positive().default(PER_MINUTE[plan]), {
    env: [`NOTULA_RATE_LIMIT_${plan.toUpperCase()}`],
    doc: `Requests per API key per minute on the ${plan} plan (REST and MCP together), over a sliding minute.`,
  });
}
