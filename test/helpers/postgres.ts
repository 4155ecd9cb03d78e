// A PostgreSQL database per test file, on the server scripts/test-postgres.sh found
// or started (or NOTULA_TEST_DATABASE_URL): created empty, dropped afterwards.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openPostgres, type OpenedPostgres } from "../../src/db/pg/open.js";
import { ROOT } from "./server.js";

export function adminUrl(): string {
  if (process.env.NOTULA_TEST_DATABASE_URL) return process.env.NOTULA_TEST_DATABASE_URL;
  const file = path.join(ROOT, ".test-postgres-url");
  if (!fs.existsSync(file))
    throw new Error(
      "No PostgreSQL for the tests: run `bash scripts/test-postgres.sh` (npm test does) or set NOTULA_TEST_DATABASE_URL.",
    );
  return fs.readFileSync(file, "utf8").trim();
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = adminUrl();
  // The creating process's id is in the name: a sweep drops only those whose process is gone.
  const name = `notula_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A fresh database, migrated and open, for the tests of the calling describe block. */
export function withPostgres(): { database: TestDatabase; pg: OpenedPostgres } {
  const ctx = {} as { database: TestDatabase; pg: OpenedPostgres };
  beforeAll(async () => {
    ctx.database = await createTestDatabase();
    ctx.pg = await openPostgres(ctx.database.url);
  });
  afterAll(async () => {
    await ctx.pg?.close();
    await ctx.database?.drop();
  });
  return ctx;
}
