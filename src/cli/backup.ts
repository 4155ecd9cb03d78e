// `notula admin backup` and `notula admin restore`: the single-box installation
// (SQLite database, recordings, secret key, config) as one checked archive.
import path from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "./exit.js";

interface Flags {
  dataDir?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
}

function phaseProgress() {
  let current: { phase: string; bar: ReturnType<typeof import("./progress.js").renderCount> } | null = null;
  return {
    async report(phase: string, done: number, total: number) {
      if (current?.phase !== phase) {
        current?.bar.done();
        const { renderCount } = await import("./progress.js");
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

export function registerBackup(admin: Command, write: (text: string) => void) {
  admin
    .command("backup")
    .description(
      "Write a consistent archive of a data dir (database, recordings, secret key, config), safe while the server runs",
    )
    .option("--data-dir <dir>", "data dir (NOTULA_DATA_DIR)")
    .requiredOption("--out <file>", "the archive to write (.tar.gz)")
    .addHelpText(
      "after",
      "\nThe archive holds the secret key that decrypts stored webhook secrets and AI keys: keep it as safe as the server.\n\nExample:\n  notula admin backup --data-dir /var/lib/notula --out /backups/notula-$(date +%F).tar.gz",
    )
    .action(async (_opts, cmd: Command) => {
      const flags = cmd.optsWithGlobals() as Flags;
      const { loadConfig } = await import("../config/load.js");
      const { databaseTarget } = await import("../db/target.js");
      const { createBackup } = await import("../backup/create.js");
      const config = loadConfig({ dataDir: flags.dataDir });
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
          flags.out!,
          (phase, done, total) => void progress.report(phase, done, total),
        );
      } catch (err) {
        throw new CliError(`Backup failed: ${(err as Error).message}`);
      } finally {
        progress.done();
      }
      const bytes = manifest.files.reduce((s, f) => s + f.bytes, 0);
      const summary = {
        out: path.resolve(flags.out!),
        createdAt: manifest.createdAt,
        files: manifest.files.length,
        bytes,
        counts: manifest.counts,
        missingRecordings: manifest.missingRecordings,
      };
      write(
        flags.json
          ? JSON.stringify(summary, null, 2) + "\n"
          : `Backed up ${manifest.counts.notes} notes, ${manifest.counts.users} users and ${manifest.files.filter((f) => f.path.startsWith("audio/")).length} recordings (${size(bytes)}) to ${summary.out}.` +
              (manifest.missingRecordings
                ? ` ${manifest.missingRecordings} recordings were deleted while the backup ran and are not in it.`
                : "") +
              "\n",
      );
    });

  admin
    .command("restore")
    .description("Restore a backup archive into a data dir, after checking every file against its manifest")
    .argument("<file>", "the archive written by `notula admin backup`")
    .option("--data-dir <dir>", "data dir to restore into (NOTULA_DATA_DIR); must be empty unless --force")
    .option("--force", "replace what the data dir holds (refused while a server runs on it)")
    .addHelpText(
      "after",
      "\nExample:\n  notula admin restore /backups/notula-2026-11-23.tar.gz --data-dir /var/lib/notula\n  notula serve --data-dir /var/lib/notula",
    )
    .action(async (file: string, _opts, cmd: Command) => {
      const flags = cmd.optsWithGlobals() as Flags;
      const { loadConfig, ConfigError } = await import("../config/load.js");
      const { restoreBackup, RestoreError } = await import("../backup/restore.js");
      const dataDir = loadConfig({ dataDir: flags.dataDir }).dataDir;
      let manifest;
      try {
        manifest = await restoreBackup(path.resolve(file), dataDir, { force: flags.force });
      } catch (err) {
        if (err instanceof RestoreError || err instanceof ConfigError) throw new CliError(err.message);
        throw err;
      }
      const summary = {
        dataDir: path.resolve(dataDir),
        createdAt: manifest.createdAt,
        files: manifest.files.length,
        counts: manifest.counts,
      };
      write(
        flags.json
          ? JSON.stringify(summary, null, 2) + "\n"
          : `Restored the backup of ${manifest.createdAt} (${manifest.counts.notes} notes, ${manifest.counts.users} users) into ${summary.dataDir}; every file matched its checksum. Start it with: notula serve --data-dir ${summary.dataDir}\n`,
      );
    });
}
