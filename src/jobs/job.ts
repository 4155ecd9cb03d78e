// A kind of background job, declared once where its worker lives: its kind, payload
// schema, idempotency key, what it does at start, and the worker (concurrency, time
// limits, attempts, handler) built from the runtime's parts. The runtime collects the
// declarations from one list (runtime/jobs.ts); services queue jobs through the
// typed `jobs.enqueue(kind, payload)` below, whose payload types each job module adds
// to JobPayloads. Adding a job touches its own module and the list.
import { z } from "zod";
import type { JobQueue, WorkerDefinition } from "./queue.js";

/**
 * Every kind of job and its payload. Each job module adds its own entry:
 * `declare module "../jobs/job.js" { interface JobPayloads { "my-job": { id: string } } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobPayloads {}

export type JobKind = keyof JobPayloads & string;

export interface JobSpec<K extends JobKind, D> {
  kind: K;
  payload: z.ZodType<JobPayloads[K]>;
  /**
   * The idempotency key: no second job with it is queued while one waits, or runs too
   * unless `coalesce` is "queued" (a running job may have read what has changed since).
   */
  key?: (payload: JobPayloads[K]) => string | undefined;
  coalesce?: "queued";
  /** Run when a working server starts its queue: work left due (a periodic job says `every` instead). */
  atStart?: (deps: D) => Promise<unknown>;
  /**
   * A periodic job (its payload empty): queued `firstInMs` after a working server starts,
   * and again `everyMs` after each run however it ended; one waits at a time.
   */
  every?: (deps: D) => { firstInMs: number; everyMs: number };
  /** What runs it, over the runtime's parts. */
  worker: (deps: D) => Omit<WorkerDefinition<JobPayloads[K]>, "kind" | "payload">;
}

/**
 * A payload schema that also reads the jobs queued before a field was renamed: the old
 * field's value is taken under its new name.
 */
export function renamedField<T extends z.ZodObject>(schema: T, from: string, to: string) {
  return z.preprocess(
    (p) =>
      p && typeof p === "object" && from in p && !(to in p) ? { ...p, [to]: (p as Record<string, unknown>)[from] } : p,
    schema,
  );
}

/** A job's declaration, typed by its kind. */
export const defineJob = <K extends JobKind, D>(spec: JobSpec<K, D>): JobSpec<K, D> => spec;

export interface EnqueueOptions {
  delayMs?: number;
  /** The key names what the caller's transaction has just created: no job can hold it yet. */
  created?: boolean;
}

export interface Jobs {
  /** Queues a job of `kind` (nothing for a kind this server has switched off). */
  enqueue<K extends JobKind>(kind: K, payload: JobPayloads[K], o?: EnqueueOptions): Promise<void>;
}

// Specs of every kind in one list: their payloads differ, so the list holds them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobSpec<D> = JobSpec<any, D>;

/** The typed way to queue the declared jobs; `off` names kinds this server does not run (no embedder: no indexing). */
export function createJobs<D>(
  queue: Pick<JobQueue, "enqueue">,
  specs: readonly AnyJobSpec<D>[],
  off: ReadonlySet<string> = new Set(),
): Jobs {
  const byKind = new Map(specs.map((s) => [s.kind as string, s]));
  return {
    async enqueue(kind, payload, o = {}) {
      const spec = byKind.get(kind);
      if (!spec) throw new Error(`No job of kind ${kind} is declared: add it to runtime/jobs.ts.`);
      if (off.has(kind)) return;
      await queue.enqueue(kind, payload as Record<string, unknown>, {
        // A periodic job is one of its kind: a waiting one absorbs the next.
        idempotencyKey: spec.key?.(payload) ?? (spec.every ? kind : undefined),
        coalesce: spec.coalesce ?? (spec.every ? "queued" : undefined),
        delayMs: o.delayMs,
        freshKey: o.created,
      });
    },
  };
}

/** Defines the worker of every declared kind that runs here; a periodic one queues its next run after each. */
export function defineWorkers<D>(
  queue: Pick<JobQueue, "define">,
  jobs: Jobs,
  specs: readonly AnyJobSpec<D>[],
  deps: D,
  off: ReadonlySet<string> = new Set(),
): void {
  for (const spec of specs) {
    if (off.has(spec.kind)) continue;
    const worker = spec.worker(deps);
    const every = spec.every?.(deps);
    const handle: typeof worker.handle = every
      ? async (payload, ctx) => {
          try {
            await worker.handle(payload, ctx);
          } finally {
            await jobs.enqueue(spec.kind, payload, { delayMs: every.everyMs });
          }
        }
      : worker.handle;
    queue.define({ kind: spec.kind, payload: spec.payload, ...worker, handle });
  }
}

/** What each job does when a working server starts its queue: the first of each periodic one, work left due. */
export async function startJobs<D>(
  jobs: Jobs,
  specs: readonly AnyJobSpec<D>[],
  deps: D,
  off: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const spec of specs) {
    if (off.has(spec.kind)) continue;
    const every = spec.every?.(deps);
    if (every) await jobs.enqueue(spec.kind, spec.payload.parse({}), { delayMs: every.firstInMs });
    await spec.atStart?.(deps);
  }
}
