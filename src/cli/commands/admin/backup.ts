// notula admin backup: the single-box installation (SQLite database, recordings,
// secret key, config) as one checked archive.
import path from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { dataDirOption, jsonTo, say, type AdminDeps, type DataDirFlags } from "./deps.js";

export const define = (admin: Command) =>
  dataDirOption(
    admin
      .command("backup")
      .description(
        "Write a consistent archive of a data dir (database, recordings, secret key, config), safe while the server runs",
      ),
  )
    .requiredOption("--out <file>", "the archive to write (.tar.gz)")
    .addHelpText(
      "after",
      "\nThe archive holds the secret key that decrypts stored webhook secrets and AI keys: keep it as safe as the server.\n\nExample:\n  notula admin backup --data-dir /var/lib/notula --out /backups/notula-$(date +%F).tar.gz",
    );

export interface Input extends DataDirFlags {
  out: string;
}

/** One progress bar per phase of the backup (copying recordings, checksumming). */
function phaseProgress() {
  let current: { phase: string; bar: ReturnType<typeof import("../../lib/progress.js").renderCount> } | null = null;
  return {
    async report(phase: string, done: number, total: number) {
      if (current?.phase !== phase) {
        current?.bar.done();
        const { renderCount } = await import("../../lib/progress.js");
        current = { phase, bar: renderCount(phase === "recordings" ? "Copying recordings" : "Checksumming", total) };
      }
      current.bar.update(done);
    },
    done: () => current?.bar.done(),
  };
}

const size = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MB`
      : `${Math.ceil(bytes / 1024)} KB`;

export async function run(f: Input) {
  const { loadConfig } = await import("../../../config/load.js");
  const { databaseTarget } = await import("../../../db/target.js");
  const { createBackup } = await import("../../../backup/create.js");
  const config = loadConfig({ dataDir: f.dataDir });
  const target = databaseTarget(config.database, config.dataDir);
  if (target.dialect !== "sqlite")
    throw new CliError(
      "The database is PostgreSQL: back it up with pg_dump (or your provider's snapshots); `notula admin backup` covers the single-box SQLite installation.",
      EXIT.usage,
    );
  const storage = config.storage.url?.trim();
  if (storage?.startsWith("s3://"))
    throw new CliError(
      "Recordings are in S3-compatible storage: protect them with the bucket's versioning or replication; `notula admin backup` covers recordings on the local disk.",
      EXIT.usage,
    );
  const audioDir = storage
    ? path.resolve(storage.startsWith("file://") ? new URL(storage).pathname : storage)
    : path.join(config.dataDir, "audio");
  const progress = phaseProgress();
  let manifest;
  try {
    manifest = await createBackup(
      {
        databaseFile: target.file,
        audioDir,
        secretKeyFile: path.join(config.dataDir, "secret.key"),
        configFile: path.join(config.dataDir, "config.json"),
      },
      f.out,
      (phase, done, total) => void progress.report(phase, done, total),
    );
  } catch (err) {
    throw new CliError(`Backup failed: ${(err as Error).message}`);
  } finally {
    progress.done();
  }
  return {
    out: path.resolve(f.out),
    createdAt: manifest.createdAt,
    files: manifest.files.length,
    bytes: manifest.files.reduce((s, file) => s + file.bytes, 0),
    counts: manifest.counts,
    missingRecordings: manifest.missingRecordings,
    recordings: manifest.files.filter((file) => file.path.startsWith("audio/")).length,
  };
}

/** Under --json, the archive's summary; else a sentence. */
export const ownsOutput = true;

export function render({ recordings, ...summary }: Awaited<ReturnType<typeof run>>, _f: Input, deps: AdminDeps) {
  if (deps.json) return jsonTo(deps.io)(JSON.stringify(summary, null, 2) + "\n");
  say(
    deps,
    `Backed up ${summary.counts.notes} notes, ${summary.counts.users} users and ${recordings} recordings (${size(summary.bytes)}) to ${summary.out}.` +
      (summary.missingRecordings
        ? ` ${summary.missingRecordings} recordings were deleted while the backup ran and are not in it.`
        : ""),
  );
}
