// Recordings that wait for a speech-to-text engine. A recording made before any engine
// is usable is kept, not failed: its note says why and waits, and it is transcribed as
// soon as the workspace's engine facts change (an admin set one up, a model arrived,
// pocketsphinx was installed, a key was corrected). A periodic look per workspace with
// waiting notes catches changes made outside the service (a package, a restart with flags).
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { NoteLifecycle } from "./note-lifecycle.js";
import type { AiConfigService } from "./ai-config.js";
import type { Jobs } from "../jobs/job.js";

/** How often a workspace with waiting recordings is looked at again. */
export const ENGINE_WATCH_MS = 60_000;
/** Waiting recordings tried per look; the rest follow at the next. */
const RESUME_BATCH = 200;

export function createEngineWait(d: {
  repos: Repositories;
  lifecycle: Pick<NoteLifecycle, "awaitingEngine" | "reprocess">;
  ai: Pick<AiConfigService, "transcriptionFacts">;
  /** The engine-watch job looks at the workspace again while a recording waits. */
  jobs: Jobs;
}) {
  return {
    /** The note's recording cannot be transcribed for want of an engine: it waits. */
    async wait(note: NoteRow, reason: string): Promise<void> {
      await d.lifecycle.awaitingEngine(note.id, reason, await d.ai.transcriptionFacts(note.workspaceId));
      await d.jobs.enqueue("engine-watch", { workspaceId: note.workspaceId }, { delayMs: ENGINE_WATCH_MS });
    },

    /**
     * Processes again the workspace's waiting recordings whose engine facts have changed
     * since they began to wait. Says whether any still wait (to be looked at again).
     */
    async resume(workspaceId: string): Promise<boolean> {
      const facts = await d.ai.transcriptionFacts(workspaceId);
      const waiting = await d.repos.maintenance.awaitingEngine(workspaceId, RESUME_BATCH);
      let still = waiting.length === RESUME_BATCH;
      for (const { id, processingInfo } of waiting) {
        if (processingInfo?.awaitingEngine === facts) {
          still = true;
          continue;
        }
        const note = await d.repos.notes.getForProcessing(id);
        // Someone may have processed it again meanwhile; that is fine.
        if (note?.awaitingEngineSince != null && note.status === "recorded-not-summarized")
          await d.lifecycle.reprocess(note);
      }
      return still;
    },
  };
}

export type EngineWait = ReturnType<typeof createEngineWait>;
