// While a meeting is recorded, its language model reads the parts of it that are
// finished (the lines the final pass has written), and combines their notes, so that
// once it stops only the last part and the note itself are left to write. Queued as
// the final pass moves on (live-transcription.ts); what the model answered is kept by
// digest (summary_parts) and found by the note's own summarizing (process-note.ts).
// It stops the moment the meeting does: the note then reads the rest, and the model is
// the note's. Only a model's summarizer reads ahead: the offline method is instant.
import { z } from "zod";
import type { PartMemo } from "../ai/summarization/summarizer.js";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Repositories } from "../db/repos/index.js";
import { defineJob } from "../jobs/job.js";
import type { Services } from "../services/index.js";
import { finalMark } from "./final-pass.js";
import { summaryInputOf } from "./summary-input.js";

declare module "../jobs/job.js" {
  interface JobPayloads {
    "read-ahead": { noteId: string };
  }
}

/** How often a read under way looks whether the meeting has stopped. */
const STOP_CHECK_MS = 1_000;

/** A note's kept answers, for its summarizer. */
export function partMemo(repos: Repositories, noteId: string, now: Clock = Date.now): PartMemo {
  return {
    get: (digest) => repos.summaryParts.get(noteId, digest),
    put: (digest, notes) => repos.summaryParts.put(noteId, digest, notes, now()),
  };
}

export const readAheadJob = defineJob({
  kind: "read-ahead",
  payload: z.object({ noteId: z.string() }),
  key: (p) => `read-ahead:${p.noteId}`,
  // A run under way read the transcript as it was: one more waits behind it.
  coalesce: "queued",
  worker: (d: {
    repos: Repositories;
    services: Pick<Services, "aiConfig" | "templates">;
    now: Clock;
    logger: Logger;
  }) => ({
    concurrency: 1,
    leaseMs: 60_000,
    timeoutMs: 6 * 3600_000,
    // Nothing is lost by a read that fails: the note reads the part itself.
    maxAttempts: 1,
    backoffMs: () => 0,
    async handle({ noteId }, { signal }) {
      const note = await d.repos.notes.getForProcessing(noteId);
      if (note?.status !== "recording") return;
      const ai = await d.services.aiConfig.engines(note.workspaceId);
      const summarizer = ai.summarizer();
      if (!summarizer.readAhead) return;
      const { input } = await summaryInputOf({ repos: d.repos, templates: d.services.templates }, ai, note, {
        lines: finalMark(note).count,
      });
      const stopped = new AbortController();
      const look = setInterval(() => {
        d.repos.notes.getForProcessing(noteId).then(
          (n) => n?.status === "recording" || stopped.abort(new Error("The meeting stopped.")),
          () => {},
        );
      }, STOP_CHECK_MS).unref();
      try {
        const { parts } = await summarizer.readAhead(input, {
          signal: AbortSignal.any([signal, stopped.signal]),
          memo: partMemo(d.repos, noteId, d.now),
        });
        d.logger.debug({ noteId, parts }, "read ahead of a meeting being recorded");
      } catch (err) {
        if (!stopped.signal.aborted) throw err;
      } finally {
        clearInterval(look);
      }
    },
  }),
});
