// Starts the real server on a free port over a temporary data dir: in this process
// (startServer: the same code as `notula serve`, without the cost of a process
// start), or as the built binary (startServerProcess) for what only a process shows:
// kill -9 and restart, signals, its memory, its environment.
import { Command } from "commander";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "bin", "notula.js");
const execFileP = promisify(execFile);

export interface TestServer {
  url: string;
  /** The admin key printed at first start (all scopes, enterprise workspace). */
  key: string;
  /** The one-time link, printed at first start, where the admin sets a password. */
  setupUrl?: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** An in-process server, with its runtime (services, repositories) for tests that drive a part of it. */
export interface InProcessTestServer extends TestServer {
  runtime: import("../../src/runtime/index.js").Runtime;
}

export interface ProcessTestServer extends TestServer {
  proc: ChildProcess;
  /** What the process has printed so far (its logs), for failure messages. */
  output(): string;
  kill9(): Promise<void>;
  /** Starts the server again on the same data dir (after stop or kill9). */
  restart(): Promise<void>;
}

export interface ServerOptions {
  args?: string[];
  dataDir?: string;
  env?: Record<string, string>;
  /** In-process servers only: where the log lines go (warnings and errors, else). */
  logLines?: string[];
  /** In-process servers only: the time the services and jobs read. */
  clock?: () => number;
}

/**
 * NOTULA_TEST_BACKEND=postgres runs these tests' servers and admin commands on
 * PostgreSQL: a fresh database per data dir, found again when a test restarts a
 * server on the same data dir.
 */
const databases = new Map<string, string>();
export async function databaseFor(dataDir: string): Promise<string | undefined> {
  if (process.env.NOTULA_TEST_BACKEND !== "postgres") return undefined;
  let url = databases.get(dataDir);
  if (!url) {
    const { createTestDatabase } = await import("./postgres.js");
    url = (await createTestDatabase()).url;
    databases.set(dataDir, url);
  }
  return url;
}

/** The environment that points a command at a test server's database (empty on SQLite). */
export const databaseEnv = (dataDir: string): Record<string, string> => {
  const url = databases.get(dataDir);
  return url ? { NOTULA_DATABASE_URL: url } : {};
};

export function tempDir(prefix = "notula-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

async function launch(dataDir: string, opts: ServerOptions) {
  const database = await databaseFor(dataDir);
  const proc = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data-dir", dataDir, ...(opts.args ?? [])], {
    // Meaning-based indexing costs CPU on every write; tests that need it turn it on.
    env: { ...serverEnv(opts), ...(database ? { NOTULA_DATABASE_URL: database } : {}) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}${err}`)), 20_000);
    proc.stdout!.on("data", (d) => {
      out += d;
      const m = /notula listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}${err}`));
    });
  });
  const key = /Admin API key[^:]*: (ntl_\S+)/.exec(out)?.[1];
  return { proc, url, key, output: () => out + err };
}

/** The environment both kinds of test server see. */
export const serverEnv = (opts: ServerOptions) => ({
  ...process.env,
  NOTULA_DATA_DIR: "",
  NOTULA_CONFIG: "",
  NOTULA_EMBEDDINGS: "none",
  ...opts.env,
});

/** The real server in this process: `notula serve`'s flags, configuration and start-up. */
export async function startServer(opts: ServerOptions = {}): Promise<InProcessTestServer> {
  if (opts.env?.PATH !== undefined)
    throw new Error("a server with its own PATH needs a process: use startServerProcess");
  const { serveOptions } = await import("../../src/cli/commands/serve/index.js");
  const { loadConfig } = await import("../../src/config/load.js");
  const { startServer: start } = await import("../../src/server/start.js");
  const { createLogger } = await import("../../src/core/logger.js");
  const dataDir = opts.dataDir ?? tempDir();
  const cmd = serveOptions(new Command()).exitOverride();
  const database = opts.args?.includes("--database") ? undefined : await databaseFor(dataDir);
  cmd.parse(
    ["--port", "0", "--data-dir", dataDir, ...(database ? ["--database", database] : []), ...(opts.args ?? [])],
    { from: "user" },
  );
  const lines: string[] = [];
  const running = await start(loadConfig(cmd.opts(), serverEnv(opts)), {
    version: "test",
    clock: opts.clock,
    out: (line) => lines.push(line),
    logger: opts.logLines
      ? createLogger({ level: "info", destination: { write: (line: string) => void opts.logLines!.push(line) } })
      : createLogger({ level: "warn" }),
  });
  const key = /Admin API key[^:]*: (ntl_\S+)/.exec(lines.join("\n"))?.[1] ?? "";
  // Only a new data dir is bootstrapped (and only by a role that serves requests).
  if (!key && !opts.dataDir) throw new Error(`no admin key printed: ${lines.join("\n")}`);
  let stopped: Promise<void> | undefined;
  const setupUrl = /one-time link[^:]*: (\S+)/.exec(lines.join("\n"))?.[1];
  return {
    url: running.url,
    key,
    setupUrl,
    dataDir,
    runtime: running.runtime,
    stop: () => (stopped ??= running.close()),
  };
}

/** The built binary as a child process. */
export async function startServerProcess(opts: ServerOptions = {}): Promise<ProcessTestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  let current = await launch(dataDir, opts);
  // Only a new database is bootstrapped, and only by a role that serves requests.
  if (!current.key && !opts.dataDir) throw new Error(`no admin key printed: ${current.output()}`);
  const server: ProcessTestServer = {
    url: current.url,
    key: current.key ?? "",
    dataDir,
    proc: current.proc,
    output: () => current.output(),
    async stop() {
      if (current.proc.exitCode !== null || current.proc.signalCode) return;
      const exited = new Promise((r) => current.proc.once("exit", r));
      current.proc.kill("SIGTERM");
      await exited;
    },
    async kill9() {
      if (current.proc.exitCode !== null || current.proc.signalCode) return;
      const exited = new Promise((r) => current.proc.once("exit", r));
      current.proc.kill("SIGKILL");
      await exited;
    },
    async restart() {
      current = await launch(dataDir, opts);
      server.url = current.url;
      server.proc = current.proc;
    },
  };
  return server;
}

/**
 * Runs `notula admin …` against a data dir and parses its --json output: the same
 * commands, parsed by the same program, in this process. test/cli/admin.test.ts
 * runs them as the binary.
 */
export async function admin<T = any>(dataDir: string, args: string[], input?: string): Promise<T> {
  const { registerAdmin } = await import("../../src/cli/commands/admin/index.js");
  let out = "";
  const program = new Command().option("--json").exitOverride();
  registerAdmin(program, { write: (text) => void (out += text), readInput: async () => input ?? "" });
  const database = databases.get(dataDir);
  const before = process.env.NOTULA_DATABASE_URL;
  if (database) process.env.NOTULA_DATABASE_URL = database;
  try {
    await program.parseAsync(["admin", ...args, "--data-dir", dataDir, "--json"], { from: "user" });
  } catch (err) {
    throw new Error(`admin ${args.join(" ")} failed: ${(err as Error).message}`);
  } finally {
    if (before === undefined) delete process.env.NOTULA_DATABASE_URL;
    else process.env.NOTULA_DATABASE_URL = before;
  }
  return JSON.parse(out) as T;
}

/** Runs the binary and returns its exit code and output, whatever the code. */
export async function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  try {
    const dataDir = args[args.indexOf("--data-dir") + 1];
    const database = args.includes("--data-dir") ? databases.get(dataDir) : undefined;
    const p = execFileP(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...(database ? { NOTULA_DATABASE_URL: database } : {}), ...options.env },
    });
    if (options.input !== undefined) p.child.stdin!.end(options.input);
    else p.child.stdin!.end();
    const { stdout, stderr } = await p;
    return { code: 0, stdout, stderr };
  } catch (e: any) {
    return { code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string };
  }
}

/**
 * Runs SQL on the database behind a test server's data dir, whichever backend it is
 * on ("?" placeholders): for tests that look at what is stored or move time on.
 */
export async function storeQuery<T = Record<string, any>>(
  dataDir: string,
  sql: string,
  ...params: unknown[]
): Promise<T[]> {
  const url = databases.get(dataDir);
  if (url) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let n = 0;
      const { rows } = await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
      // Counts and times come back as text from bigint columns: as numbers, like SQLite's.
      return rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            typeof v === "string" && /^-?\d+$/.test(v) && /(^n$|count|_at$|_sec$|attempts|position)/.test(k)
              ? Number(v)
              : v,
          ]),
        ),
      ) as T[];
    } finally {
      await client.end();
    }
  }
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(path.join(dataDir, "notula.db"));
  try {
    const stmt = db.prepare(sql);
    return (stmt.reader ? stmt.all(...params) : (stmt.run(...params), [])) as T[];
  } finally {
    db.close();
  }
}

/**
 * The resolved configuration a test opens a runtime with (openRuntime): the data dir's
 * defaults, no embedding model unless asked for, and what the test names.
 */
export async function runtimeConfig(
  dataDir: string,
  over: { publicUrl?: string; database?: string; secretKey?: string; env?: Record<string, string> } = {},
) {
  const { loadConfig } = await import("../../src/config/load.js");
  const { resolveConfig } = await import("../../src/config/resolve.js");
  const config = loadConfig(
    { dataDir, database: over.database },
    { NOTULA_EMBEDDINGS: "none", ...(over.secretKey ? { NOTULA_SECRET_KEY: over.secretKey } : {}), ...over.env },
  );
  return resolveConfig({ ...config, publicUrl: over.publicUrl ?? config.publicUrl });
}

/** The environment of a CLI pointed at `server` with its admin key: its own config dir, no keychain, no colour. */
export const cliEnv = (server: { url: string; key: string }): Record<string, string> => ({
  NOTULA_URL: server.url,
  NOTULA_API_KEY: server.key,
  XDG_CONFIG_HOME: tempDir("notula-cfg-"),
  NOTULA_NO_KEYCHAIN: "1",
  NO_COLOR: "1",
});
