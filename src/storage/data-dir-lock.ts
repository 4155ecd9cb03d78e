// One single-box server per data directory. `notula serve` (role all) restarts
// whatever a crash left half-done (uploads being received, jobs marked running): a
// second such server on the same directory would restart the first one's live work.
// The lock is a file made with O_EXCL that names its holder; a holder that no longer
// runs (a crash, kill -9) leaves a stale file, which the next start takes over.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError } from "../core/errors.js";

interface Holder {
  pid: number;
  host: string;
  url: string;
  /** The address its links carry (its public URL); older holders wrote none. */
  publicUrl?: string;
  startedAt: string;
}

/** Locks this process holds, by file: a second server in the same process is refused too. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): Holder | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Holder;
  } catch {
    return null;
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string, url: string, publicUrl = url): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "notula.lock");
  const me: Holder = { pid: process.pid, host: os.hostname(), url, publicUrl, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me) + "\n", { flag: "wx", mode: 0o600 });
      held.add(file);
      return {
        release() {
          if (!held.delete(file)) return;
          // Only our own lock: never a file a later holder wrote.
          if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const other = readHolder(file);
    const sameHost = !other || other.host === os.hostname();
    const running = other !== null && (other.pid === process.pid ? held.has(file) : sameHost ? alive(other.pid) : true);
    if (running)
      throw new ConfigError(
        `Another notula server (pid ${other!.pid} on ${other!.host}, listening on ${other!.url} since ${other!.startedAt}) uses the data directory ${dataDir}; ` +
          `stop it first, or give this one its own --data-dir. (If that server is gone, delete ${file}.)`,
      );
    // Stale: its holder is gone.
    fs.rmSync(file, { force: true });
  }
  throw new ConfigError(`Could not take the lock ${file}; is another server starting on ${dataDir}?`);
}

/**
 * The public URL of the server that runs on this data dir now (on this machine), or
 * null: what a program reading the same data (`notula mcp` on it) puts in its links.
 */
export function runningServerUrl(dataDir: string): string | null {
  const holder = readHolder(path.join(dataDir, "notula.lock"));
  if (!holder || holder.host !== os.hostname() || !alive(holder.pid)) return null;
  return holder.publicUrl ?? holder.url;
}
