// notula migrate: applies the database migrations now, for operators who keep schema
// changes apart from starting the servers (which apply them too, once).
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { globalDeps, under } from "../../lib/command.js";

export const define = (program: Command) =>
  program
    .command("migrate")
    .description("Apply the database migrations (SQLite in the data dir, or PostgreSQL) and report them")
    .option("--data-dir <dir>", "data dir (NOTULA_DATA_DIR)")
    .option("--database <url>", "sqlite:/path/file.db or postgres://user:pass@host/db (NOTULA_DATABASE_URL)")
    .addHelpText(
      "after",
      "\nExamples:\n  notula migrate\n  notula migrate --database postgres://notula:secret@db.internal/notula",
    );

export interface Input {
  dataDir?: string;
  database?: string;
}

export interface Report {
  dialect: string;
  database: string;
  applied: number;
}

export async function run(f: Input): Promise<Report> {
  const { loadConfig, ConfigError } = await import("../../../config/load.js");
  const { databaseTarget } = await import("../../../db/target.js");
  let target;
  try {
    const config = loadConfig({ dataDir: f.dataDir, database: f.database });
    target = databaseTarget(config.database, config.dataDir);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof Error) throw new CliError((err as Error).message, EXIT.usage);
    throw err;
  }
  try {
    if (target.dialect === "postgres") {
      const { openPostgres, redactUrl } = await import("../../../db/pg/open.js");
      const pg = await openPostgres(target.url, { poolSize: 1 });
      const { rows } = await pg.pool.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
      await pg.close();
      return { dialect: "postgres", database: redactUrl(target.url), applied: rows[0].n };
    }
    const { openDatabase } = await import("../../../db/open.js");
    const db = openDatabase(target.file);
    const row = db.sqlite.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    db.close();
    return { dialect: "sqlite", database: target.file, applied: row.n };
  } catch (err) {
    throw new CliError(`Migration failed: ${(err as Error).message}`, EXIT.error);
  }
}

export const render = (r: Report) =>
  process.stdout.write(`${r.database}: schema up to date (${r.applied} migrations applied).\n`);

export const registerMigrate = (program: Command) => under(program, globalDeps, [{ define, run, render }]);
