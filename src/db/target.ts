// Which database a configuration names: the embedded SQLite file (the default, in the
// data dir, or another file with sqlite:PATH) or a PostgreSQL server.
import path from "node:path";
import { ConfigError } from "../core/errors.js";

export type DatabaseTarget = { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };

export function databaseTarget(database: string | undefined, dataDir: string): DatabaseTarget {
  const value = database?.trim();
  if (!value) return { dialect: "sqlite", file: path.join(dataDir, "notula.db") };
  if (/^postgres(ql)?:\/\//i.test(value)) return { dialect: "postgres", url: value };
  if (/^sqlite:/i.test(value)) {
    const file = value.replace(/^sqlite:(\/\/)?/i, "");
    if (!file) throw new ConfigError("The database URL sqlite: names no file; use sqlite:/path/to/notula.db.");
    return { dialect: "sqlite", file: path.resolve(file) };
  }
  throw new ConfigError(
    `The database URL ${value.replace(/\/\/[^@/]*@/, "//***@")} is not supported: use sqlite:/path/to/file.db or postgres://user:password@host/database.`,
  );
}
