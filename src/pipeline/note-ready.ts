// A note processed for the first time: its maker is mailed that it is ready, if they
// asked. Queued in the transaction that completes the note, so the mail is neither lost
// nor sent for a note whose completion was rolled back.
import { z } from "zod";
import type { Repositories } from "../db/repos/index.js";
import { defineJob } from "../jobs/job.js";
import type { Services } from "../services/index.js";

declare module "../jobs/job.js" {
  interface JobPayloads {
    "note-ready": { noteId: string };
  }
}

export const noteReadyJob = defineJob({
  kind: "note-ready",
  payload: z.object({ noteId: z.string() }),
  key: (p) => `note-ready:${p.noteId}`,
  worker: (d: { repos: Repositories; services: Pick<Services, "notifications"> }) => ({
    concurrency: 2,
    leaseMs: 60_000,
    timeoutMs: 60_000,
    maxAttempts: 5,
    backoffMs: (attempt) => 5_000 * attempt,
    async handle({ noteId }) {
      const note = await d.repos.notes.getForProcessing(noteId);
      if (note?.status === "completed") await d.services.notifications.noteCompleted(note);
    },
  }),
});
