// Every repository over PostgreSQL: the portable ones (written once for both dialects)
// and the PostgreSQL modules where the dialects differ (notes, search, passages).
import { BadRequestError } from "../../core/errors.js";
import type { Repositories } from "../repos/index.js";
import { pgConnection } from "./connection.js";
import { pgAddCountAndRead } from "./rate-counts.js";
import { pgNoteRepo } from "./notes.js";
import type { PgDb } from "./open.js";
import { pgPassageRepo } from "./passages.js";
import { pgPassageIndexRepo } from "./passage-index.js";
import { pgCellSets } from "./cell-sets.js";
import { pgPortableRepositories } from "./portable.js";
import { pgSearchRepo } from "./search.js";
import { pgKeyLookup } from "./api-keys.js";
import { factCache, type FactChanges } from "./fact-changes.js";

/** PostgreSQL's text cannot hold NUL, which SQLite stores: such input is the caller's mistake, not a server error. */
const NUL_IN_TEXT = new Set(["22021", "22P05"]);

function refusingNul<R extends object>(repo: R): R {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repo))
    out[name] =
      typeof member === "function"
        ? async (...args: unknown[]) => {
            try {
              return await member(...args);
            } catch (err) {
              const code =
                (err as { cause?: { code?: string }; code?: string }).cause?.code ?? (err as { code?: string }).code;
              if (code && NUL_IN_TEXT.has(code))
                throw new BadRequestError("Text may not contain the NUL character (\\u0000).");
              throw err;
            }
          }
        : member;
  return out as R;
}

/**
 * `prepared` is the generic-plan pool of openPostgres, for the hot statements whose plan
 * does not depend on their values; without it they share `pool` (and are planned per run).
 * `jobs` is the job queue's own pool; without it the queue shares `pool`.
 */
export function createPgRepositories(
  pool: PgDb,
  opts: { vectorIndex?: boolean; prepared?: PgDb; jobs?: PgDb; vectorIndexAt?: number; facts?: FactChanges } = {},
): Repositories {
  const { db, generic, on, rows, names, transaction } = pgConnection(pool, opts.prepared, opts.facts);
  const cellSets = pgCellSets(db);
  const portable = pgPortableRepositories(db, transaction, opts.facts);
  // The job queue on its own connections (openPostgres), joining a caller's transaction
  // as every repository does: a job enqueued by a request commits with it.
  const jobs = opts.jobs ? pgPortableRepositories(on(opts.jobs), transaction, opts.facts).jobs : portable.jobs;
  const repos = {
    ...portable,
    jobs,
    // Every API request's first statement: written for PostgreSQL and prepared once per connection.
    apiKeys: {
      ...portable.apiKeys,
      findByHashWithPlan: pgKeyLookup(rows, opts.facts ? factCache(opts.facts) : undefined),
    },
    // Every limited API request's count: counted and read back in one round trip.
    sharedState: { ...portable.sharedState, addCountAndRead: pgAddCountAndRead(rows) },
    notes: pgNoteRepo({ db, generic }, transaction, names),
    search: pgSearchRepo(db),
    passages: pgPassageRepo(db, transaction, { ...opts, cellSets }),
    passageIndex: pgPassageIndexRepo(db, transaction, cellSets, {
      vectorIndex: opts.vectorIndex,
      indexAt: opts.vectorIndexAt,
    }),
  };
  return {
    ...(Object.fromEntries(Object.entries(repos).map(([k, r]) => [k, refusingNul(r)])) as typeof repos),
    transaction,
  };
}
