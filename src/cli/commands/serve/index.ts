// notula serve: the whole service on this machine (or one replica of it).
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { under } from "../../lib/command.js";
import { defaultText, entries } from "../../../config/setting.js";
import { SETTINGS } from "../../../config/settings.js";

/**
 * The options of `notula serve`, one per setting of the table that has a flag (the test
 * suite parses them in-process too). Each says what it does, its default and its
 * environment variable, from the same declaration the configuration is read by.
 */
export function serveOptions(cmd: Command): Command {
  for (const { setting } of entries(SETTINGS)) {
    if (!setting.flag) continue;
    if (setting.flagDoc) {
      cmd.option(setting.flag, setting.flagDoc);
      continue;
    }
    const shown = defaultText(setting);
    const facts = [shown && `default ${shown}`, setting.env?.[0]].filter(Boolean).join("; ");
    cmd.option(setting.flag, facts ? `${setting.doc} (${facts})` : setting.doc);
  }
  return cmd;
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
