// Transactions on PostgreSQL: a pool hands each statement to any connection, so a
// transaction is one connection held for its length. The repositories see one
// database handle that resolves, per call, to the transaction the caller is inside
// (tracked through async context) or to the pool.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PgDb } from "./open.js";

export function pgConnection(db: PgDb) {
  const inside = new AsyncLocalStorage<PgDb>();
  const handle = new Proxy(db, {
    get(target, prop) {
      const current = inside.getStore() ?? target;
      const value = Reflect.get(current, prop, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
  return {
    /** The database as repositories use it. */
    db: handle as PgDb,
    /** Runs `fn` in one transaction; repository calls inside it join it, and so does a nested call. */
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (inside.getStore()) return fn();
      return db.transaction((tx) => inside.run(tx as unknown as PgDb, fn));
    },
  };
}
