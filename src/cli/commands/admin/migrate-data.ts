// notula admin migrate-data: moves a single-box installation (its SQLite database and
// its recordings) to the scale-out backends, then checks that every table arrived whole.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { CopyReport } from "../../../db/copy.js";
import { jsonTo, type AdminDeps, type DataDirFlags } from "./deps.js";

export const define = (admin: Command) =>
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
    );

export interface Input extends DataDirFlags {
  from?: string;
  to: string;
  storage?: string;
}

export interface Result extends CopyReport {
  ok: boolean;
  recordings: { copied: number; missing: number } | null;
  secretKeyFile: string;
}

/** Progress goes to stderr as the copy runs. */
const progress = (line: string) => process.stderr.write(line + "\n");

export async function run(f: Input): Promise<Result> {
  const { loadConfig, ConfigError } = await import("../../../config/load.js");
  const { databaseTarget } = await import("../../../db/target.js");
  let config, target;
  try {
    config = loadConfig({ dataDir: f.dataDir, database: f.from });
    target = databaseTarget(config.database, config.dataDir);
    if (databaseTarget(f.to, config.dataDir).dialect !== "postgres")
      throw new ConfigError("--to must be a postgres:// URL.");
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.usage);
  }
  if (target.dialect !== "sqlite")
    throw new CliError("The source must be a SQLite installation (a data dir, or --database sqlite:…).", EXIT.usage);
  if (!fs.existsSync(target.file)) throw new CliError(`No database at ${target.file}.`, EXIT.notFound);

  const { openDatabase } = await import("../../../db/open.js");
  const { openPostgres, redactUrl } = await import("../../../db/pg/open.js");
  const { copySqliteToPostgres, TargetNotEmptyError } = await import("../../../db/copy.js");
  const from = openDatabase(target.file);
  let to;
  try {
    to = await openPostgres(f.to, { poolSize: 2 });
  } catch (err) {
    from.close();
    throw new CliError((err as Error).message, EXIT.error);
  }
  try {
    progress(`Copying ${target.file} to ${redactUrl(f.to)}`);
    let report;
    try {
      report = await copySqliteToPostgres(from, to, (table, rows) =>
        progress(`  ${table.padEnd(26)} ${String(rows).padStart(9)} rows`),
      );
    } catch (err) {
      if (err instanceof TargetNotEmptyError) throw new CliError(err.message, EXIT.usage);
      throw err;
    }
    let recordings: Result["recordings"] = null;
    if (f.storage) {
      const { openAudioStore } = await import("../../../storage/open.js");
      const { audioKey } = await import("../../../storage/audio-key.js");
      const sourceStore = openAudioStore(config.storage, config.dataDir).store;
      const targetStore = openAudioStore({ ...config.storage, url: f.storage }, config.dataDir).store;
      const uploads = from.sqlite
        .prepare(
          "SELECT id, workspace_id AS workspaceId, extension FROM audio_uploads WHERE status IN ('uploaded', 'used') " +
            "UNION ALL SELECT id, workspace_id, format FROM recordings WHERE bytes IS NOT NULL",
        )
        .all() as { id: string; workspaceId: string; extension: string }[];
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
          progress(`  recordings ${recordings.copied}/${uploads.length}`);
      }
    }
    const ok = report.tables.every((t) => t.source === t.target) && report.vectors.source === report.vectors.target;
    return { ok, ...report, recordings, secretKeyFile: path.join(config.dataDir, "secret.key") };
  } finally {
    from.close();
    await to.close();
  }
}

/** The counts side by side (or as JSON); a copy that is not whole fails the command after saying where. */
export const ownsOutput = true;

export function render(r: Result, _f: Input, deps: AdminDeps) {
  const write = deps.io.write;
  if (deps.json) jsonTo(deps.io)(JSON.stringify(r, null, 2) + "\n");
  else {
    const row = (name: string, source: number, target: number, note = "") =>
      write(`${name.padEnd(26)} ${String(source).padStart(9)} ${String(target).padStart(9)}${note}\n`);
    write(`${"TABLE".padEnd(26)} ${"SQLITE".padStart(9)} ${"POSTGRES".padStart(9)}\n`);
    for (const t of r.tables) row(t.table, t.source, t.target, t.source === t.target ? "" : "  MISMATCH");
    row("passage vectors", r.vectors.source, r.vectors.target);
    if (r.recordings)
      write(
        `recordings copied: ${r.recordings.copied}${r.recordings.missing ? ` (${r.recordings.missing} listed but missing from the data dir)` : ""}\n`,
      );
    write(
      r.ok
        ? `Every row arrived. Start the servers with NOTULA_SECRET_KEY=$(cat ${r.secretKeyFile}).\n`
        : "Some counts differ: see above.\n",
    );
  }
  if (!r.ok) throw new CliError("The copy is incomplete: counts differ.", EXIT.error);
}
