// Transactions on PostgreSQL: a pool hands each statement to any connection, so a
// transaction is one connection held for its length. The repositories see one
// database handle that resolves, per call, to the transaction the caller is inside
// (tracked through async context) or to the pool.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PgDb, PgQueryable } from "./open.js";

/**
 * A transaction as its async context holds it. Work the transaction started that
 * outlives it (a timer, a queued job) inherits the context too, so it is marked
 * ended rather than trusted to disappear.
 */
interface Open {
  tx: PgQueryable;
  ended: boolean;
}

export function pgConnection(db: PgDb) {
  const inside = new AsyncLocalStorage<Open>();
  const openTransaction = () => {
    const open = inside.getStore();
    return open && !open.ended ? open.tx : null;
  };
  const handle = new Proxy(db, {
    get(target, prop) {
      const current = openTransaction() ?? target;
      const value = Reflect.get(current, prop, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
  return {
    /** The database as repositories use it. */
    db: handle as PgQueryable,
    /** Runs `fn` in one transaction; repository calls inside it join it, and so does a nested call. */
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (openTransaction()) return fn();
      return db.transaction(async (tx) => {
        const open: Open = { tx, ended: false };
        try {
          return await inside.run(open, fn);
        } finally {
          open.ended = true;
        }
      });
    },
  };
}
