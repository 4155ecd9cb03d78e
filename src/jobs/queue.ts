// A small durable job queue on the service's SQLite database. Jobs survive restarts
// and kill -9: a job whose worker died is taken up again once its lease runs out.
// Handlers must be idempotent; they are told which attempt they are on.
import { AsyncResource } from "node:async_hooks";
import type { z } from "zod";
import type { JobRow } from "../db/repos/jobs.js";
import type { Repositories } from "../db/repos/index.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import { safeErrorMessage } from "../core/error-message.js";

export interface JobContext {
  job: JobRow;
  /** Aborted when the job times out or the queue stops. */
  signal: AbortSignal;
}

export interface WorkerDefinition<P> {
  kind: string;
  payload: z.ZodType<P>;
  /** Jobs of this kind run at most this many at a time. */
  concurrency: number;
  /** How long a claim lasts without a heartbeat; heartbeats come every third of it. */
  leaseMs: number;
  timeoutMs: number;
  maxAttempts: number;
  /** Delay before attempt n+1, after attempt n failed. */
  backoffMs(attempt: number): number;
  handle(payload: P, ctx: JobContext): Promise<void>;
  /** Called once when the last attempt has failed. */
  onExhausted?(payload: P, error: Error): void | Promise<void>;
  /** Frees what the worker holds between jobs (child processes, files), when the queue stops. */
  release?(): Promise<void>;
}

const DEFAULT_MAX_ATTEMPTS = 5;

/** A failure that retrying cannot fix: the job fails at once. */
export class PermanentJobError extends Error {}

export interface JobQueue {
  define<P>(worker: WorkerDefinition<P>): void;
  /**
   * With an idempotency key, no second job is queued while one with that key waits or
   * runs; with `coalesce: "queued"`, only a waiting one counts (a running one may have
   * read data that has changed since, so a new job follows it). `freshKey` says the key
   * names what the caller's transaction has just created (a new note): no job can hold
   * it yet, and the check (a lock and a read, on PostgreSQL) is skipped.
   */
  enqueue(
    kind: string,
    payload: Record<string, unknown>,
    opts?: { idempotencyKey?: string; delayMs?: number; coalesce?: "queued"; freshKey?: boolean },
  ): Promise<number>;
  start(): void;
  /**
   * Stops claiming and aborts running jobs; a job that settles within `graceMs` (a
   * checkpoint reached, or handed back) is done with, and any still running then is
   * handed back to the queue for the next worker.
   */
  stop(opts?: { graceMs?: number }): Promise<void>;
  /** Resolves when no job is queued or running, the periodic sweep aside (for tests and benchmarks). */
  idle(): Promise<void>;
}

export interface JobQueueOptions {
  now: Clock;
  logger: Logger;
  pollMs?: number;
  /** Told how each attempt ended and how long it ran (metrics). */
  onAttempt?: (kind: string, outcome: "succeeded" | "retried" | "failed", durationSec: number) => void;
}

export function createJobQueue(repos: Repositories, opts: JobQueueOptions): JobQueue {
  const { now } = opts;
  const logger = opts.logger.child({ component: "jobs" });
  const pollMs = opts.pollMs ?? 1000;
  const workers = new Map<string, WorkerDefinition<any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any
  const running = new Map<string, Set<Promise<void>>>();
  const timers = new Map<string, NodeJS.Timeout>();
  const stopController = new AbortController();
  let started = false;
  /** Jobs claimed and not yet settled, to hand back if their handlers outlive a stop. */
  const inHand = new Set<JobRow>();
  // Timers and pumps run in the queue's own async context, the one it was made in:
  // a job enqueued inside a transaction must not carry that transaction into the
  // worker that claims it (it would claim through the transaction's connection, or,
  // on SQLite, pass the gate that keeps others out of an open transaction).
  const scope = new AsyncResource("notula-job-queue");

  function schedule(kind: string, delayMs: number) {
    if (!started || stopController.signal.aborted) return;
    clearTimeout(timers.get(kind));
    timers.set(kind, setTimeout(() => scope.runInAsyncScope(() => pump(kind)), Math.max(0, delayMs)).unref());
  }

  // One pump per kind at a time: claims are awaited, and two interleaved pumps would
  // both see a free slot.
  const pumping = new Map<string, Promise<void>>();

  function pump(kind: string) {
    if (pumping.has(kind)) return;
    pumping.set(
      kind,
      pumpNow(kind)
        .catch((err) => {
          logger.error({ err, kind }, "could not claim jobs");
          schedule(kind, pollMs);
        })
        .finally(() => pumping.delete(kind)),
    );
  }

  async function pumpNow(kind: string) {
    const worker = workers.get(kind)!;
    const active = running.get(kind)!;
    while (!stopController.signal.aborted && active.size < worker.concurrency) {
      const job = await repos.jobs.claim(kind, now(), worker.leaseMs);
      if (!job) break;
      if (stopController.signal.aborted) {
        // Claimed while the server began to stop: back to the queue, untouched.
        await repos.jobs.release(job.id, job.attempts, now());
        return;
      }
      inHand.add(job);
      const p = run(worker, job).finally(() => {
        inHand.delete(job);
        active.delete(p);
        schedule(kind, 0);
      });
      active.add(p);
    }
    if (!stopController.signal.aborted && active.size < worker.concurrency) {
      const next = await repos.jobs.nextAvailableAt(kind);
      schedule(kind, next === null ? pollMs : Math.min(pollMs, next - now()));
    }
  }

  async function run(worker: WorkerDefinition<unknown>, job: JobRow) {
    const jobLog = logger.child({ job: job.id, kind: worker.kind });
    const timeout = AbortSignal.timeout(worker.timeoutMs);
    const signal = AbortSignal.any([timeout, stopController.signal]);
    const beat = setInterval(
      () => {
        repos.jobs.heartbeat(job.id, job.attempts, now() + worker.leaseMs, now()).then(
          (held) => held || clearInterval(beat),
          (err) => jobLog.warn({ err }, "heartbeat failed"),
        );
      },
      Math.max(50, worker.leaseMs / 3),
    ).unref();
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    jobLog.info({ attempt: job.attempts }, "job started");
    try {
      const parsed = worker.payload.safeParse(job.payload);
      if (!parsed.success) throw new PermanentJobError(`invalid payload: ${parsed.error.message}`);
      await worker.handle(parsed.data, { job, signal });
      await repos.jobs.succeed(job.id, job.attempts, now());
      jobLog.info({ attempt: job.attempts, durationMs: Math.round(seconds() * 1000) }, "job succeeded");
      opts.onAttempt?.(worker.kind, "succeeded", seconds());
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      if (stopController.signal.aborted && !timeout.aborted) {
        // Shutting down: the job goes back to the queue as it was, for the next worker.
        await repos.jobs.release(job.id, job.attempts, now()).catch(() => {});
        jobLog.info({ attempt: job.attempts }, "job handed back: the server is stopping");
        return;
      }
      const message = timeout.aborted ? `timed out after ${worker.timeoutMs} ms` : safeErrorMessage(err);
      if (e instanceof PermanentJobError || job.attempts >= worker.maxAttempts) {
        await repos.jobs.fail(job.id, job.attempts, message, now());
        jobLog.warn({ attempts: job.attempts, reason: message }, "job failed for good");
        opts.onAttempt?.(worker.kind, "failed", seconds());
        try {
          await worker.onExhausted?.(job.payload, new Error(message));
        } catch (hookErr) {
          jobLog.error({ err: hookErr }, "job failure handler threw");
        }
      } else {
        const delay = worker.backoffMs(job.attempts);
        await repos.jobs.retryLater(job.id, job.attempts, message, now() + delay, now());
        jobLog.warn({ attempt: job.attempts, reason: message, retryInMs: delay }, "job attempt failed; retrying");
        opts.onAttempt?.(worker.kind, "retried", seconds());
      }
    } finally {
      clearInterval(beat);
    }
  }

  return {
    define(worker) {
      workers.set(worker.kind, worker);
      running.set(worker.kind, new Set());
      if (started) schedule(worker.kind, 0);
    },
    async enqueue(kind, payload, o = {}) {
      // A worker need not be defined here: another process (the server) may run it.
      const id = await repos.jobs.enqueue({
        kind,
        payload,
        maxAttempts: workers.get(kind)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        availableAt: now() + (o.delayMs ?? 0),
        idempotencyKey: o.idempotencyKey,
        coalesceQueuedOnly: o.coalesce === "queued",
        freshKey: o.freshKey,
        now: now(),
      });
      // Let the caller's transaction commit before a worker looks for it.
      if (started && workers.has(kind)) setImmediate(() => scope.runInAsyncScope(() => schedule(kind, o.delayMs ?? 0)));
      return id;
    },
    start() {
      started = true;
      for (const kind of workers.keys()) schedule(kind, 0);
    },
    async stop(o = {}) {
      stopController.abort();
      for (const t of timers.values()) clearTimeout(t);
      // A claim in flight finishes (and hands back what it took) before the database closes.
      await Promise.allSettled([...pumping.values()]);
      const settled = Promise.allSettled([...running.values()].flatMap((s) => [...s]));
      let grace: NodeJS.Timeout | undefined;
      const outlived = await Promise.race([
        settled.then(() => false),
        new Promise<boolean>((r) => (grace = setTimeout(() => r(true), o.graceMs ?? 5_000))),
      ]);
      clearTimeout(grace);
      if (outlived)
        for (const job of inHand) {
          await repos.jobs.release(job.id, job.attempts, now()).catch(() => {});
          logger.warn({ job: job.id, kind: job.kind }, "job handed back unfinished: it did not stop in time");
        }
      await Promise.all([...workers.values()].map((w) => w.release?.().catch(() => {})));
    },
    async idle() {
      for (;;) {
        // The periodic sweep is always waiting for its next turn: it is not work in flight.
        const busy = (await repos.jobs.depth()).filter((r) => r.kind !== "sweep");
        if (!busy.length) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
