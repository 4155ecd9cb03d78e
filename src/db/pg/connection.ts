// Transactions on PostgreSQL: a pool hands each statement to any connection, so a
// transaction is one connection held for its length. The repositories see one
// database handle that resolves, per call, to the transaction the caller is inside
// (tracked through async context) or to the pool.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { getTableName, Table, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { PgDb, PgQueryable } from "./open.js";
import { FACT_TABLES, noFactChanges, type FactChanges } from "./fact-changes.js";

/**
 * A transaction as its async context holds it. Work the transaction started that
 * outlives it (a timer, a queued job) inherits the context too, so it is marked
 * ended rather than trusted to disappear.
 */
interface Open {
  tx: PgQueryable;
  ended: boolean;
  /** Run once the transaction has committed or rolled back. */
  afterEnd: (() => void)[];
}

const WRITES = new Set(["insert", "update", "delete"]);

/**
 * `builder`, whose statement calls `done` once it has run (or failed): a write made
 * outside a transaction is committed when its statement returns.
 */
const thenable = (x: object): x is PromiseLike<unknown> => typeof (x as { then?: unknown }).then === "function";

function settling<T extends object>(builder: T, done: () => void): T {
  let run: Promise<unknown> | undefined;
  const settled = (t: T) =>
    (run ??= new Promise((resolve, reject) => (thenable(t) ? t.then(resolve, reject) : resolve(t))).finally(done));
  return new Proxy(builder, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "then")
        return (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => settled(t).then(ok, fail);
      if (prop === "catch") return (fail?: (e: unknown) => unknown) => settled(t).catch(fail);
      if (prop === "finally") return (f?: () => void) => settled(t).finally(f);
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(t, args);
        if (out === t) return receiver;
        return out !== null && typeof out === "object" ? settling(out, done) : out;
      };
    },
  });
}

/**
 * Distinct statement texts given a name (and so prepared once per connection). The
 * hot statements are few and bind their lists as one array parameter; past this
 * many, a text runs unnamed, so an unusual mix of filters cannot fill the server's memory.
 */
const MAX_NAMED = 256;

/** Runs a statement and returns its rows. */
export type PgRows = <T extends Record<string, unknown>>(query: SQL) => Promise<T[]>;

/**
 * Names for prepared statements, while the server keeps them per connection. Behind a
 * pooler that hands one client's statements to several server sessions (PgBouncer in
 * transaction mode), or one that shares a session among clients, a name is found
 * missing or already taken: the first such error turns naming off for the process,
 * and the statement is run again unnamed.
 */
export interface StatementNames {
  /** `name` while naming holds, else "" (the driver's unnamed statement). */
  of(name: string): string;
  /**
   * A name for a statement's text (a hash of it), so that one shape of a query is
   * parsed and planned once per connection whatever values it is run with; "" past
   * MAX_NAMED distinct texts, or while naming is off.
   */
  forText(text: string): string;
  /** Whether `err` says the server does not keep names as expected (and turns naming off if so). */
  lost(err: unknown): boolean;
}

/** duplicate_prepared_statement, invalid_sql_statement_name. */
const NAME_ERRORS = new Set(["42P05", "26000"]);

/**
 * `prepared` is the pool for named statements whose plan does not depend on their
 * values (its sessions keep the generic plan: see openPostgres); it defaults to `db`.
 */
/**
 * `facts` hears of changes to the callers' facts (fact-changes.ts); the writes made here
 * to the tables it watches are reported to it as they begin and once they are committed.
 */
export function pgConnection(db: PgDb, prepared: PgDb = db, facts: FactChanges = noFactChanges) {
  const inside = new AsyncLocalStorage<Open>();
  /** Transactions open now (several at once on the pool's connections). */
  let running = 0;
  const openTransaction = () => {
    const open = inside.getStore();
    return open && !open.ended ? open.tx : null;
  };
  /** `base`, or inside a transaction the transaction: what a repository call runs on. */
  const within = (base: PgDb) =>
    new Proxy(base, {
      get(target, prop) {
        const open = inside.getStore();
        const current = open && !open.ended ? open.tx : target;
        const value = Reflect.get(current, prop, current);
        if (typeof value !== "function") return value;
        if (typeof prop !== "string" || !WRITES.has(prop)) return value.bind(current);
        return (table: unknown, ...rest: unknown[]) => {
          const builder = (value as (...a: unknown[]) => object).call(current, table, ...rest);
          if (!(table instanceof Table) || !FACT_TABLES.has(getTableName(table))) return builder;
          const done = facts.begin();
          if (open && !open.ended) {
            open.afterEnd.push(done);
            return builder;
          }
          return settling(builder, done);
        };
      },
    }) as PgQueryable;
  const dialect = new PgDialect();
  let naming = true;
  const hashed = new Map<string, string>();
  const statementNames: StatementNames = {
    of: (name) => (naming ? name : ""),
    forText(text) {
      let name = hashed.get(text);
      if (!name && hashed.size < MAX_NAMED)
        hashed.set(text, (name = `notula_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`));
      return statementNames.of(name ?? "");
    },
    lost(err) {
      const code =
        (err as { code?: string; cause?: { code?: string } }).code ??
        (err as { cause?: { code?: string } }).cause?.code;
      if (!code || !NAME_ERRORS.has(code)) return false;
      naming = false;
      return true;
    },
  };
  return {
    /** The database as repositories use it. */
    db: within(db),
    /**
     * The same, for the named statements whose best plan is the same for any values
     * (a page of notes by date or by title, one note by id): they run on the generic-plan
     * pool, where PostgreSQL plans each once per connection.
     */
    generic: within(prepared),
    /** Another pool of the same database, as repositories use it (joining a caller's transaction). */
    on: (other: PgDb) => within(other),
    /**
     * Rows of a hot read, as a named prepared statement on the generic-plan pool: parsed
     * and planned once per connection instead of on every request. Inside a transaction
     * it joins it.
     */
    rows: (async <T extends Record<string, unknown>>(query: SQL): Promise<T[]> => {
      const tx = openTransaction();
      if (tx) return (await tx.execute<T>(query)).rows as T[];
      const { sql: text, params } = dialect.sqlToQuery(query);
      const name = statementNames.forText(text);
      try {
        return (await prepared.$client.query<T>({ name: name || undefined, text, values: params })).rows;
      } catch (err) {
        if (!name || !statementNames.lost(err)) throw err;
        return (await prepared.$client.query<T>({ text, values: params })).rows;
      }
    }) as PgRows,
    names: statementNames,
    /** Runs `fn` in one transaction; repository calls inside it join it, and so does a nested call. */
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (openTransaction()) return fn();
      const afterEnd: (() => void)[] = [];
      try {
        return await db.transaction(async (tx) => {
          const open: Open = { tx, ended: false, afterEnd };
          running++;
          try {
            return await inside.run(open, fn);
          } finally {
            open.ended = true;
            // With no transaction open, nothing needs the context: disabled, it stops
            // Node tracking it through every promise (async hooks) until the next one.
            if (--running === 0) inside.disable();
          }
        });
      } finally {
        for (const done of afterEnd) done();
      }
    },
  };
}

/** A drizzle query that can run as a prepared statement (a select builder, for one). */
interface Preparable<T> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<T> };
}

/**
 * Runs a drizzle query as a named prepared statement, named for its text: the query's
 * values are bound parameters, so every request of the same shape reuses one plan per
 * connection, and drizzle still maps the rows. Behind a pooler that loses names it runs
 * unnamed (see StatementNames).
 */
export async function runNamed<T>(names: StatementNames, query: Preparable<T>): Promise<T> {
  const name = names.forText(query.toSQL().sql);
  try {
    return await query.prepare(name).execute();
  } catch (err) {
    if (!name || !names.lost(err)) throw err;
    return query.prepare("").execute();
  }
}
