// Starts the real `notula serve` binary on a free port over a temporary data dir.
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
  dataDir: string;
  proc: ChildProcess;
  stop(): Promise<void>;
  kill9(): Promise<void>;
  /** Starts the server again on the same data dir (after stop or kill9). */
  restart(): Promise<void>;
}

export interface ServerOptions {
  args?: string[];
  dataDir?: string;
  env?: Record<string, string>;
}

export function tempDir(prefix = "notula-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

async function launch(dataDir: string, opts: ServerOptions) {
  const proc = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data-dir", dataDir, ...(opts.args ?? [])], {
    // Meaning-based indexing costs CPU on every write; tests that need it turn it on.
    env: { ...process.env, NOTULA_DATA_DIR: "", NOTULA_CONFIG: "", NOTULA_EMBEDDINGS: "none", ...opts.env },
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

export async function startServer(opts: ServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  let current = await launch(dataDir, opts);
  if (!current.key) throw new Error(`no admin key printed: ${current.output()}`);
  const server: TestServer = {
    url: current.url,
    key: current.key,
    dataDir,
    proc: current.proc,
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

/** Runs `notula admin …` against a data dir and parses its --json output. */
export async function admin<T = any>(dataDir: string, args: string[], input?: string): Promise<T> {
  const child = execFile(process.execPath, [BIN, "admin", ...args, "--data-dir", dataDir, "--json"]);
  if (input !== undefined) child.stdin!.end(input);
  else child.stdin!.end();
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("exit", (code) => (code === 0 ? resolve({ stdout }) : reject(new Error(`admin ${args.join(" ")} exited ${code}: ${stderr}`))));
  });
  return JSON.parse(stdout) as T;
}

/** Runs the binary and returns its exit code and output, whatever the code. */
export async function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  try {
    const p = execFileP(process.execPath, [BIN, ...args], { env: { ...process.env, ...options.env } });
    if (options.input !== undefined) p.child.stdin!.end(options.input);
    else p.child.stdin!.end();
    const { stdout, stderr } = await p;
    return { code: 0, stdout, stderr };
  } catch (e: any) {
    return { code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string };
  }
}
