// notula serve: the whole service on this machine (or one replica of it).
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { under } from "../../lib/command.js";

/** The options of `notula serve`, on any command (the test suite parses them in-process too). */
export function serveOptions(cmd: Command): Command {
  return cmd
    .option("--host <host>", "interface to listen on (default 127.0.0.1; NOTULA_HOST)")
    .option("--role <role>", "all (default) | api | worker: serve requests, run background jobs, or both (NOTULA_ROLE)")
    .option("--port <port>", "port, 0 for any free one (default 8787; NOTULA_PORT)")
    .option("--data-dir <dir>", "where notula.db and audio/ live (NOTULA_DATA_DIR)")
    .option(
      "--database <url>",
      "sqlite:/path/file.db (default <data-dir>/notula.db) or postgres://user:pass@host/db (NOTULA_DATABASE_URL)",
    )
    .option(
      "--storage <url>",
      "where recordings live: a directory, or s3://bucket/prefix?endpoint=…&region=…&pathStyle=true (default <data-dir>/audio; NOTULA_STORAGE_URL)",
    )
    .option("--public-url <url>", "base URL clients reach the server at (NOTULA_PUBLIC_URL)")
    .option(
      "--tls-cert <file>",
      "serve https with this certificate (PEM; NOTULA_TLS_CERT): browsers record only on https or localhost",
    )
    .option("--tls-key <file>", "the certificate's private key (PEM; NOTULA_TLS_KEY)")
    .option("--config <file>", "JSON config file (default <data-dir>/config.json; NOTULA_CONFIG)")
    .option("--no-rate-limit", "turn off per-key rate limits (NOTULA_RATE_LIMIT=off)")
    .option("--max-upload-bytes <n>", "largest audio upload accepted (default 2 GiB)")
    .option("--allow-private-webhooks", "allow webhook URLs on loopback or private networks")
    .option(
      "--allow-private-ai-urls",
      "let workspaces point their AI configuration at loopback or private addresses, e.g. a local Ollama (NOTULA_ALLOW_PRIVATE_AI_URLS)",
    )
    .option("--stt-engine <engine>", "speech-to-text: auto | openai | whisper | sphinx (NOTULA_STT_ENGINE)")
    .option(
      "--stt-url <url>",
      "OpenAI-compatible transcription server, e.g. https://api.openai.com/v1 (NOTULA_STT_URL; key in NOTULA_STT_API_KEY)",
    )
    .option("--stt-model <name>", "transcription model (default whisper-1; NOTULA_STT_MODEL)")
    .option("--stt-language <code>", "language of the recordings, e.g. en or de; default auto (NOTULA_STT_LANGUAGE)")
    .option("--model-path <file>", "whisper.cpp model file for the local engine (NOTULA_WHISPER_MODEL)")
    .option(
      "--llm-url <url>",
      "OpenAI-compatible chat server for summaries (NOTULA_LLM_URL; key in NOTULA_LLM_API_KEY)",
    )
    .option("--llm-model <name>", "summary model (default gpt-4o-mini; NOTULA_LLM_MODEL)")
    .option("--concurrency <n>", "recordings processed at once (default 1; NOTULA_PIPELINE_CONCURRENCY)")
    .option("--log-level <level>", "fatal | error | warn | info (default) | debug | trace | silent (NOTULA_LOG_LEVEL)")
    .option("--metrics", "serve Prometheus metrics at /metrics (NOTULA_METRICS=on)")
    .option("--metrics-port <port>", "serve /metrics on this port instead of the main one (NOTULA_METRICS_PORT)");
}

export const define = (program: Command) =>
  serveOptions(
    program.command("serve").description("Run the meeting-notes service: REST API under /v1, reference at /docs"),
  ).addHelpText("after", "\nExample:\n  npx notula serve --port 8787 --data-dir ./notula-data");

/** What serve is given: the version it reports (/healthz, the OpenAPI document). */
export interface ServeDeps {
  version: string;
}

/**
 * Starts the server and keeps it until a signal: the first drains (requests get 5 s,
 * running jobs 3 s to reach a checkpoint or go back to the queue) and exits 0 within
 * 10 s; a second one exits at once.
 */
export async function run(flags: Record<string, unknown>, { version }: ServeDeps): Promise<void> {
  const { loadConfig, ConfigError } = await import("../../../config/load.js");
  let config;
  try {
    config = loadConfig(flags);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
  const { offerLocalEngine } = await import("./offer-engine.js");
  await offerLocalEngine(config);
  const { startServer } = await import("../../../server/start.js");
  let server;
  try {
    server = await startServer(config, { version });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new CliError(
        `${config.host}:${config.port} is already in use; choose another with --port (0 picks a free one).`,
      );
    if (code === "EACCES")
      throw new CliError(
        `Not allowed to listen on ${config.host}:${config.port}; choose a port above 1024 with --port.`,
      );
    if (err instanceof ConfigError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(signal === "SIGINT" ? 130 : 143);
    stopping = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`notula: could not stop cleanly: ${(err as Error)?.message ?? String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** Serving has no result to print: the server logs what it does. */
export const ownsOutput = true;

export const registerServe = (program: Command, version: string) =>
  under(program, () => ({ version }), [{ define, run, ownsOutput }]);
