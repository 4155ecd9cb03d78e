// `notula admin migrate-data`: moves a single-box installation (its SQLite database and
// its recordings) to the scale-out backends, then checks that every table arrived whole.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "./exit.js";

export function registerMigrateData(admin: Command, write: (text: string) => void) {
  admin
    .command("migrate-data")
    .description(
      "Copy a data dir's SQLite database (and recordings) into an empty PostgreSQL database (and another store)",
    )
    .option("--data-dir <dir>", "the data dir to copy (NOTULA_DATA_DIR): its notula.db, recordings and secret key")
    .option("--from <url>", "the SQLite database, when not the data dir's: sqlite:/path/notula.db")
    .requiredOption("--to <url>", "the PostgreSQL database: postgres://user:password@host/db (must hold no workspace)")
    .option("--storage <url>", "also copy the recordings there: s3://bucket/prefix?endpoint=… or a directory")
    .addHelpText(
      "after",
      "\nExample:\n  notula admin migrate-data --data-dir /var/lib/notula --to postgres://notula:…@db/notula \\\n      --storage 's3://meetings/recordings?endpoint=http://minio:9000'\n\nStop the server first. Then start the new servers with NOTULA_SECRET_KEY set to the\ncontents of <data-dir>/secret.key: it decrypts the webhook secrets and signs links.",
    )
    .action(async (_f, cmd: Command) => {
      const flags = cmd.optsWithGlobals();
      const { loadConfig, ConfigError } = await import("../config/load.js");
      const { databaseTarget } = await import("../db/target.js");
      let config, target;
      try {
        config = loadConfig({ dataDir: flags.dataDir, database: flags.from });
        target = databaseTarget(config.database, config.dataDir);
        if (databaseTarget(flags.to, config.dataDir).dialect !== "postgres")
          throw new ConfigError("--to must be a postgres:// URL.");
      } catch (err) {
        throw new CliError((err as Error).message, EXIT.usage);
      }
      if (target.dialect !== "sqlite")
        throw new CliError(
          "The source must be a SQLite installation (a data dir, or --database sqlite:…).",
          EXIT.usage,
        );
      if (!fs.existsSync(target.file)) throw new CliError(`No database at ${target.file}.`, EXIT.notFound);

      const { openDatabase } = await import("../db/open.js");
      const { openPostgres, redactUrl } = await import("../db/pg/open.js");
      const { copySqliteToPostgres, TargetNotEmptyError } = await import("../db/copy.js");
      const say = (line: string) => process.stderr.write(line + "\n");
      const from = openDatabase(target.file);
      let to;
      try {
        to = await openPostgres(flags.to, { poolSize: 2 });
      } catch (err) {
        from.close();
        throw new CliError((err as Error).message, EXIT.error);
      }
      try {
        say(`Copying ${target.file} to ${redactUrl(flags.to)}`);
        let report;
        try {
          report = await copySqliteToPostgres(from, to, (table, rows) =>
            say(`  ${table.padEnd(26)} ${String(rows).padStart(9)} rows`),
          );
        } catch (err) {
          if (err instanceof TargetNotEmptyError) throw new CliError(err.message, EXIT.usage);
          throw err;
        }
        let recordings: { copied: number; missing: number } | null = null;
        if (flags.storage) {
          const { openAudioStore } = await import("../storage/open.js");
          const { audioKey } = await import("../storage/audio-key.js");
          const sourceStore = openAudioStore(config.storage, config.dataDir).store;
          const targetStore = openAudioStore({ ...config.storage, url: flags.storage }, config.dataDir).store;
          const uploads = from.sqlite
            .prepare(
              "SELECT id, workspace_id AS workspaceId, extension FROM audio_uploads WHERE status IN ('uploaded', 'used')",
            )
            .all() as {
            id: string;
            workspaceId: string;
            extension: string;
          }[];
          recordings = { copied: 0, missing: 0 };
          for (const u of uploads) {
            const key = audioKey(u);
            if (!(await sourceStore.exists(key))) {
              recordings.missing++;
              continue;
            }
            await targetStore.put(key, sourceStore.read(key), { maxBytes: Number.MAX_SAFE_INTEGER });
            recordings.copied++;
            if (recordings.copied % 10 === 0 || recordings.copied === uploads.length)
              say(`  recordings ${recordings.copied}/${uploads.length}`);
          }
        }
        const mismatched = report.tables.filter((t) => t.source !== t.target);
        const vectorsOk = report.vectors.source === report.vectors.target;
        const ok = mismatched.length === 0 && vectorsOk;
        const secretKeyFile = path.join(config.dataDir, "secret.key");
        if (flags.json) write(JSON.stringify({ ok, ...report, recordings, secretKeyFile }, null, 2) + "\n");
        else {
          write(`${"TABLE".padEnd(26)} ${"SQLITE".padStart(9)} ${"POSTGRES".padStart(9)}\n`);
          for (const t of report.tables)
            write(
              `${t.table.padEnd(26)} ${String(t.source).padStart(9)} ${String(t.target).padStart(9)}${t.source === t.target ? "" : "  MISMATCH"}\n`,
            );
          write(
            `${"passage vectors".padEnd(26)} ${String(report.vectors.source).padStart(9)} ${String(report.vectors.target).padStart(9)}\n`,
          );
          if (recordings)
            write(
              `recordings copied: ${recordings.copied}${recordings.missing ? ` (${recordings.missing} listed but missing from the data dir)` : ""}\n`,
            );
          write(
            ok
              ? `Every row arrived. Start the servers with NOTULA_SECRET_KEY=$(cat ${secretKeyFile}).\n`
              : "Some counts differ: see above.\n",
          );
        }
        if (!ok) throw new CliError("The copy is incomplete: counts differ.", EXIT.error);
      } finally {
        from.close();
        await to.close();
      }
    });
}
