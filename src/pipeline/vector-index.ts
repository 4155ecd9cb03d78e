// Builds a workspace's vector index in the background: samples its passages' vectors,
// trains cells on them (k-means, db/cells.ts), then moves every passage to its cell a
// page at a time, each page a short transaction of its own, so that requests and
// indexing go on between pages, and searches keep finding every passage throughout
// (they read the cells not yet emptied too). Runs as a job when a workspace's passages
// cross the threshold, or grow fourfold past the last training, or a build was cut
// off; and from `notula admin reindex`.
import { z } from "zod";
import { trainCells } from "../db/cells.js";
import type { Repositories } from "../db/repos/index.js";
import { cellsFor } from "../db/cells.js";
import type { IndexTarget } from "../db/stores/passage-index-store.js";
import type { Clock } from "../core/clock.js";
import { defineJob, type Jobs } from "../jobs/job.js";

/** Samples per cell to train on (k-means wants some tens). */
const SAMPLES_PER_CELL = 24;
const PAGE = 5_000;
/** Passages moved per transaction: some tens of milliseconds, then requests go on. */
const MOVE_PAGE = 250;
/** A build not heard from for this long is taken over. */
const LEASE_MS = 10 * 60_000;

export interface BuildProgress {
  stage: "sampling" | "training" | "moving";
  /** 0 to 1, over the whole build. */
  fraction: number;
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Builds (or finishes) one index, unless another build of it is under way or it is
 * not due. Returns whether it ran. Progress: sampling is the first 10%, training the
 * next 20%, moving the rest.
 */
export async function buildVectorIndex(
  repos: Repositories,
  now: Clock,
  target: IndexTarget,
  onProgress?: (p: BuildProgress) => void,
  signal?: AbortSignal,
): Promise<boolean> {
  if (!(await repos.passageIndex.claimBuild(target, now(), LEASE_MS))) return false;
  const report = async (stage: BuildProgress["stage"], fraction: number) => {
    await repos.passageIndex.buildProgress(target, now(), fraction);
    onProgress?.({ stage, fraction });
    signal?.throwIfAborted();
    await yieldToRequests();
  };
  try {
    // Built meanwhile (a second job queued while the first ran): nothing to do.
    if (!(await repos.passageIndex.buildsDue(target.workspaceId)).some((t) => t.dims === target.dims)) {
      await repos.passageIndex.releaseBuild(target);
      return false;
    }
    const total = await repos.passageIndex.passageCount(target);
    let cells = await repos.passageIndex.unfinishedBuild(target);
    if (!cells) {
      const count = cellsFor(total);
      // An even spread over the whole index: every stride-th passage in key order.
      const stride = Math.max(1, Math.floor(total / (count * SAMPLES_PER_CELL)));
      const sampleIds: number[] = [];
      let seen = 0;
      for (let after: { cell: number; passageId: number } | null = null; ;) {
        const page = await repos.passageIndex.memberIdsAfter(target, after, PAGE);
        for (const m of page) if (seen++ % stride === 0) sampleIds.push(m.passageId);
        if (page.length < PAGE) break;
        after = page[page.length - 1];
        await report("sampling", (0.05 * seen) / Math.max(total, 1));
      }
      if (!sampleIds.length) {
        await repos.passageIndex.releaseBuild(target);
        return true;
      }
      const samples: Float32Array[] = [];
      for (let i = 0; i < sampleIds.length; i += 1000) {
        samples.push(...(await repos.passageIndex.vectorsOf(sampleIds.slice(i, i + 1000))));
        await report("sampling", 0.05 + (0.05 * i) / sampleIds.length);
      }
      const centroids = await trainCells(samples, count, {
        onIteration: (done, of) => report("training", 0.1 + (0.2 * done) / of),
        pause: yieldToRequests,
      });
      cells = await repos.passageIndex.installCells(target, centroids, seen);
    }
    for (let moved = 0; ;) {
      const n = await repos.passageIndex.moveToCells(target, cells.generation, cells.firstCell, MOVE_PAGE);
      if (!n) break;
      moved += n;
      await report("moving", 0.3 + (0.7 * Math.min(moved, total)) / Math.max(total, 1));
    }
    await repos.passageIndex.finishBuild(target, cells.generation);
    onProgress?.({ stage: "moving", fraction: 1 });
    return true;
  } catch (err) {
    await repos.passageIndex.releaseBuild(target);
    throw err;
  }
}

/** Queues a build for each index of the workspace (or every one) that is due one; one job per index at a time. */
export async function queueDueBuilds(repos: Repositories, jobs: Jobs, workspaceId?: string): Promise<number> {
  const due = await repos.passageIndex.buildsDue(workspaceId);
  for (const t of due) await jobs.enqueue("build-vector-index", { ...t });
  return due.length;
}

const payload = z.object({ workspaceId: z.string(), dims: z.number().int().positive() });

declare module "../jobs/job.js" {
  interface JobPayloads {
    "build-vector-index": z.infer<typeof payload>;
  }
}

type BuildDeps = { repos: Repositories; jobs: Jobs; now: Clock };

export const buildVectorIndexJob = defineJob({
  kind: "build-vector-index",
  payload,
  key: (t) => `build-vector-index:${t.workspaceId}:${t.dims}`,
  // Indexes due a build that no write has asked for yet (after an upgrade, a restore or an import).
  atStart: (d: BuildDeps) => queueDueBuilds(d.repos, d.jobs),
  worker: (d: BuildDeps) => ({
    concurrency: 1,
    leaseMs: 60_000,
    timeoutMs: 6 * 60 * 60_000,
    maxAttempts: 3,
    backoffMs: (attempt) => 60_000 * attempt,
    handle: async (target, ctx) => {
      await buildVectorIndex(d.repos, d.now, target, undefined, ctx.signal);
    },
  }),
});
