// notula admin restore <file>
import path from "node:path";
import type { Command } from "commander";
import { CliError } from "../../exit.js";
import { say, type AdminDeps, type DataDirFlags } from "./deps.js";

export const define = (admin: Command) =>
  admin
    .command("restore")
    .description("Restore a backup archive into a data dir, after checking every file against its manifest")
    .argument("<file>", "the archive written by `notula admin backup`")
    .option("--data-dir <dir>", "data dir to restore into (NOTULA_DATA_DIR); must be empty unless --force")
    .option("--force", "replace what the data dir holds (refused while a server runs on it)")
    .addHelpText(
      "after",
      "\nExample:\n  notula admin restore /backups/notula-2026-11-23.tar.gz --data-dir /var/lib/notula\n  notula serve --data-dir /var/lib/notula",
    );

export interface Input extends DataDirFlags {
  file: string;
  force?: boolean;
}

export async function run(f: Input) {
  const { loadConfig, ConfigError } = await import("../../../config/load.js");
  const { restoreBackup, RestoreError } = await import("../../../backup/restore.js");
  const dataDir = loadConfig({ dataDir: f.dataDir }).dataDir;
  let manifest;
  try {
    manifest = await restoreBackup(path.resolve(f.file), dataDir, { force: f.force });
  } catch (err) {
    if (err instanceof RestoreError || err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
  return {
    dataDir: path.resolve(dataDir),
    createdAt: manifest.createdAt,
    files: manifest.files.length,
    counts: manifest.counts,
  };
}

export const render = (r: Awaited<ReturnType<typeof run>>, _f: Input, deps: AdminDeps) =>
  say(
    deps,
    `Restored the backup of ${r.createdAt} (${r.counts.notes} notes, ${r.counts.users} users) into ${r.dataDir}; every file matched its checksum. Start it with: notula serve --data-dir ${r.dataDir}`,
  );
