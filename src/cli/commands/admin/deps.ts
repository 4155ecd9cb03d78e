// What the admin verbs are given: where they write and read (the terminal, or a test
// running them in-process), whether --json was asked for, and the data dir's runtime.
import type { Command } from "commander";
import { isJson } from "../../lib/command.js";
import { CliError, EXIT } from "../../exit.js";
import type { Runtime } from "../../../runtime/index.js";
import { PLANS, type PlanName } from "../../../core/principal.js";

/** Where the admin commands write and read: the terminal, unless a caller (the test suite) runs them in-process. */
export interface AdminIo {
  write(text: string): void;
  /** Whether what is written goes to a terminal (tables align) or to a program (tab-separated rows). */
  terminal?: boolean;
  /** Standard input, whole, or null when it is a terminal. */
  readInput(): Promise<string | null>;
}

export const terminalIo: AdminIo = {
  write: (text) => void process.stdout.write(text),
  get terminal() {
    return Boolean(process.stdout.isTTY);
  },
  async readInput() {
    if (process.stdin.isTTY) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

export interface AdminDeps {
  io: AdminIo;
  json: boolean;
  /** Opens the data dir's runtime for `fn` and closes it after; errors become the CLI's. */
  withRuntime<T>(dataDir: string | undefined, fn: (rt: Runtime, publicUrl: string) => T | Promise<T>): Promise<T>;
}

/** Every admin verb takes the data dir. */
export interface DataDirFlags {
  dataDir?: string;
}

export const dataDirOption = (cmd: Command) => cmd.option("--data-dir <dir>", "data dir (NOTULA_DATA_DIR)");

async function withRuntime<T>(
  dataDir: string | undefined,
  fn: (rt: Runtime, publicUrl: string) => T | Promise<T>,
): Promise<T> {
  const { loadConfig, ConfigError } = await import("../../../config/load.js");
  const { resolveConfig } = await import("../../../config/resolve.js");
  const { openRuntime } = await import("../../../runtime/index.js");
  const { AppError } = await import("../../../core/errors.js");
  const { exitCodeFor } = await import("../../exit.js");
  let config;
  try {
    config = loadConfig({ dataDir });
  } catch (err) {
    throw err instanceof ConfigError ? new CliError(err.message, EXIT.usage) : err;
  }
  // Links the services write (invites) point where the server is reached.
  const resolved = resolveConfig(config);
  const publicUrl = resolved.publicUrl;
  let rt;
  try {
    rt = await openRuntime(resolved);
  } catch (err) {
    throw err instanceof ConfigError ? new CliError(err.message, EXIT.usage) : err;
  }
  try {
    return await fn(rt, publicUrl);
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message, exitCodeFor(err.status));
    throw err;
  } finally {
    await rt.close();
  }
}

export const adminDeps =
  (io: AdminIo) =>
  (cmd: Command): AdminDeps => ({ io, json: isJson(cmd), withRuntime });

/** What --json prints, through the admin's output. */
export const jsonTo = (io: AdminIo) => (text: string) => io.write(text);

/** A line (or lines) of text, through the admin's output. */
export const say = (deps: AdminDeps, text: string) => deps.io.write(text + "\n");

export type Plan = PlanName;

export function plan(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value))
    throw new CliError(`--plan must be one of ${PLANS.join(", ")}.`, EXIT.usage);
  return value as Plan;
}

/** A password on standard input (its final newline dropped). */
export async function readPassword(io: AdminIo): Promise<string> {
  const input = await io.readInput();
  if (input === null) throw new CliError("--password-stdin expects the password on standard input.", EXIT.usage);
  return input.replace(/\r?\n$/, "");
}

/** The workspace a verb acts on: the one named, else the data dir's first. */
export async function workspaceOf(rt: Runtime, named: string | undefined): Promise<string | undefined> {
  return named ?? (await rt.services.workspaces.list())[0]?.id;
}
