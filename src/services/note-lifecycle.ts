// The note life cycle: the one place that moves a note between statuses, refuses the
// moves the life cycle does not have, and fires what follows each move (processing,
// search indexing, webhook events), in the same transaction as the move itself.
//
//   from audio:  postprocessing → transcript-processing → summarizing → completed
//   from text:   completed, or summarizing → completed (a transcript with no summary)
//   failing:     any in-between status → recorded-not-summarized
//   recorded:    idle → recording → postprocessing (→ as from audio); a recording that got
//                no audio: idle | recording → recorded-not-summarized
//   reprocess:   completed | recorded-not-summarized | idle | recording → postprocessing | summarizing
//   no engine:   transcript-processing → recorded-not-summarized, waiting; reprocessed once one appears
import { createNoteHistory } from "./note-history.js";
import { IN_FLIGHT_STATUSES, type NoteStatus } from "../core/note-vocabulary.js";
import type { Jobs } from "../jobs/job.js";
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow, SegmentRow } from "../db/stores/note-store.js";
import type { Clock } from "../core/clock.js";
import { ConflictError, InternalError } from "../core/errors.js";
import type { NoteDto } from "../shared/schemas/notes.js";
import type { EmitEvent } from "../webhooks/events.js";
import { presentFullNote } from "./note-presenter.js";
import { planActionItems, presentActionItem } from "./action-items.js";

export type { NoteStatus };

/** Statuses a note passes through while a processing job owns it. */
export const IN_FLIGHT = IN_FLIGHT_STATUSES;

const ALLOWED: Record<NoteStatus, readonly NoteStatus[]> = {
  postprocessing: ["transcript-processing", "recorded-not-summarized"],
  // A resumed job starts its stage again.
  "transcript-processing": ["transcript-processing", "summarizing", "recorded-not-summarized"],
  summarizing: ["completed", "recorded-not-summarized"],
  completed: ["postprocessing", "summarizing"],
  "recorded-not-summarized": ["postprocessing", "summarizing"],
  idle: ["recording", "postprocessing", "summarizing", "recorded-not-summarized"],
  recording: ["postprocessing", "summarizing", "recorded-not-summarized"],
};

export function canMove(from: NoteStatus, to: NoteStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** The job queue's idempotency key for a note's processing (pipeline/process-note.ts). */
export const processingKey = (noteId: string) => `process-note:${noteId}`;

export interface LifecycleDeps {
  repos: Repositories;
  now: Clock;
  /** Records a workspace event (webhooks) in the caller's transaction. */
  emit: EmitEvent;
  /**
   * What follows a status, queued in the caller's transaction: processing (or enhancing
   * with a template), indexing for meaning-based search, the "ready" mail.
   */
  jobs: Jobs;
  /** For the share links in the notes that events carry. */
  publicUrl: string;
}

export function createNoteLifecycle(d: LifecycleDeps) {
  const { repos, now } = d;
  const history = createNoteHistory(repos, now);

  async function current(noteId: string): Promise<NoteRow | null> {
    return await repos.notes.getForProcessing(noteId);
  }

  /**
   * Checks the move against the note's stored status (a caller's copy may be stale);
   * a move the life cycle lacks is a bug in the caller, never data to keep.
   */
  async function check(noteId: string, to: NoteStatus) {
    const from = (await current(noteId))?.status;
    if (from === undefined) throw new InternalError(`Note ${noteId} no longer exists.`);
    if (!canMove(from, to)) throw new InternalError(`Note ${noteId} cannot move from ${from} to ${to}.`);
  }

  /** The note as events carry it: the full single-read shape. */
  const snapshot = (note: NoteRow): Promise<NoteDto> => presentFullNote(repos, note, d.publicUrl);
  /** What an event about a note carries: the note, and its action items as things of their own. */
  const payloadOf = async (note: NoteRow) => ({
    note: await snapshot(note),
    actionItems: (await repos.actionItems.forNote(note.id)).map((r) => presentActionItem(r, note.title)),
  });

  /**
   * Settles a note's processing: the status change, its event and the search-index job
   * are one transaction. Were the event written after the status, a worker killed
   * between the two would leave a finished note whose event never exists, since a
   * retried job skips a note that is already settled.
   */
  async function settle(
    noteId: string,
    fields: Parameters<typeof repos.notes.setProcessingState>[1],
    event: "note.completed" | "note.updated",
    alongside?: () => Promise<void>,
  ) {
    await repos.transaction(async () => {
      await repos.notes.setProcessingState(noteId, fields);
      await alongside?.();
      const done = await current(noteId);
      if (!done) return;
      await d.emit(done.workspaceId, event, done.id, () => payloadOf(done));
      await d.jobs.enqueue("index-passages", { source: "note", id: done.id });
      // A note processed for the first time: its maker may have asked to be told.
      if (event === "note.completed" && done.status === "completed")
        await d.jobs.enqueue("note-ready", { noteId: done.id });
    });
  }

  return {
    /**
     * A note was just inserted (inside the caller's transaction) with its first status:
     * announce it, and queue its processing when that status asks for it. The row is
     * read back only for a webhook's payload (seq and defaults are the database's).
     */
    async created(workspaceId: string, noteId: string, opts: { index: boolean; status: NoteStatus; text?: boolean }) {
      // Made with its summary or enhanced note (an import): their task lines are its action items.
      if (opts.text) {
        const note = await current(noteId);
        if (note) await repos.actionItems.replaceForNote(noteId, (await planActionItems(repos, note, now())).rows);
      }
      await d.emit(workspaceId, "note.created", noteId, async () => {
        const note = await current(noteId);
        if (!note) throw new InternalError(`Note ${noteId} vanished while being created.`);
        return await payloadOf(note);
      });
      // The note is new in this transaction: no job can hold its keys yet. A note
      // whose processing is queued is indexed once it settles (settle, above): indexed
      // now as well, its passages would be embedded twice, and the model's time is what
      // a burst of new meetings waits on.
      if (IN_FLIGHT.has(opts.status)) await d.jobs.enqueue("process-note", { noteId }, { created: true });
      else if (opts.index) await d.jobs.enqueue("index-passages", { source: "note", id: noteId }, { created: true });
    },

    /** Runs the processing again: from the recording if there is one, else from the transcript (the caller checked there is one). */
    async reprocess(note: NoteRow): Promise<void> {
      // The status says whether processing runs; a job that just set its note's final
      // status may still be finishing, and the new one queues beside it.
      if (IN_FLIGHT.has(note.status)) throw new ConflictError(`Note ${note.id} is being processed already.`);
      const to: NoteStatus = note.uploadId || note.recordingId ? "postprocessing" : "summarizing";
      await check(note.id, to);
      const { awaitingEngine: _waited, ...info } = note.processingInfo ?? {};
      await repos.transaction(async () => {
        await repos.notes.setProcessingState(note.id, {
          status: to,
          processingError: null,
          ...(note.awaitingEngineSince !== null ? { awaitingEngineSince: null, processingInfo: info } : {}),
          updatedAt: now(),
        });
        await d.jobs.enqueue("process-note", { noteId: note.id });
      });
    },

    /**
     * Writes a finished note's enhanced note again with a template, in the background:
     * summarizing, then back to where it was (with the new note, or the old one and why not).
     */
    async enhance(note: NoteRow, templateId: string): Promise<void> {
      const from = note.status;
      if (IN_FLIGHT.has(from))
        throw new ConflictError(`Note ${note.id} is being processed already; enhance it when it is done.`);
      if (from !== "completed" && from !== "recorded-not-summarized")
        throw new ConflictError(`Note ${note.id} is ${from}: only a completed or recorded note can be enhanced.`);
      await repos.transaction(async () => {
        // Read again inside the transaction: of two enhance requests at once, the second gets 409.
        const stored = (await current(note.id))?.status;
        if (stored === undefined) throw new InternalError(`Note ${note.id} no longer exists.`);
        if (stored !== "completed" && stored !== "recorded-not-summarized")
          throw new ConflictError(`Note ${note.id} is being processed already; enhance it when it is done.`);
        await repos.notes.setProcessingState(note.id, { status: "summarizing", updatedAt: now() });
        await d.jobs.enqueue("process-note", { noteId: note.id, templateId, restore: stored });
      });
    },

    /** Enhancing failed for good: the note goes back to where it was, keeping its enhanced note, and says why. */
    async enhanceFailed(
      noteId: string,
      restore: "completed" | "recorded-not-summarized",
      reason: string,
    ): Promise<void> {
      const note = await current(noteId);
      if (!note || note.status !== "summarizing") return; // deleted or settled meanwhile
      await repos.transaction(async () => {
        await repos.notes.setProcessingState(noteId, { status: restore, processingError: reason, updatedAt: now() });
        const done = await current(noteId);
        if (done) await d.emit(done.workspaceId, "note.updated", done.id, () => payloadOf(done));
      });
    },

    /** A recorder's first piece of audio arrived: the note is being recorded. */
    async recordingStarted(noteId: string): Promise<void> {
      const note = await current(noteId);
      if (note?.status !== "idle") return; // started already (pieces race), or stopped
      await repos.notes.setProcessingState(noteId, { status: "recording", updatedAt: now() });
    },

    /**
     * The recording stopped (asked to, gone quiet, or at its length limit): with audio,
     * it is processed as an uploaded recording is; without any, it ends here and says so.
     */
    async recordingStopped(
      noteId: string,
      fields: { totalDurationSec: number; hadAudio: boolean; gaps: string | null },
    ): Promise<void> {
      const to: NoteStatus = fields.hadAudio ? "postprocessing" : "recorded-not-summarized";
      await check(noteId, to);
      if (!fields.hadAudio) {
        await settle(
          noteId,
          { status: to, processingError: "The recording received no audio.", updatedAt: now() },
          "note.completed",
        );
        return;
      }
      await repos.transaction(async () => {
        const note = (await current(noteId))!;
        await repos.notes.update(note.workspaceId, noteId, { totalDurationSec: fields.totalDurationSec });
        // Where live transcription got to (the pipeline starts there), and the gaps, kept
        // through processing and shown among its warnings.
        const info = { ...(note.processingInfo ?? {}), ...(fields.gaps ? { recordingGaps: fields.gaps } : {}) };
        await repos.notes.setProcessingState(noteId, {
          status: to,
          processingError: null,
          processingInfo: Object.keys(info).length ? info : null,
          updatedAt: now(),
        });
        await d.jobs.enqueue("process-note", { noteId });
      });
    },

    /** The pipeline starts (or resumes) transcribing the recording. */
    async transcriptionStarted(note: NoteRow): Promise<void> {
      await check(note.id, "transcript-processing");
      await repos.notes.setProcessingState(note.id, { status: "transcript-processing", updatedAt: now() });
    },

    /** The transcript is in: it replaces any earlier one, and summarizing comes next. */
    async transcribed(
      note: NoteRow,
      segments: SegmentRow[],
      fields: { totalDurationSec: number; processingInfo: Record<string, string>; inputLanguage: string | null },
    ): Promise<void> {
      await check(note.id, "summarizing");
      await repos.notes.replaceTranscript(note.id, segments, {
        status: "summarizing",
        processingError: null,
        updatedAt: now(),
        ...fields,
      });
    },

    /**
     * The summary and enhanced note are in: the note is complete. A note enhanced again
     * (`updated`) announces note.updated; one processed for the first time, note.completed.
     */
    async summarized(
      note: NoteRow,
      fields: Pick<NoteRow, "summary" | "enhancedNote" | "templateId" | "processingWarnings" | "translationLanguage"> &
        Partial<Pick<NoteRow, "title">> & { processingInfo: Record<string, string> },
      opts: { updated?: boolean } = {},
    ): Promise<void> {
      await check(note.id, "completed");
      // Its action items from its new text, keeping what people did to the ones it had.
      const items = await planActionItems(
        repos,
        { ...note, summary: fields.summary, enhancedNote: fields.enhancedNote },
        now(),
      );
      await settle(
        note.id,
        // Written anew by the machine: no person's edit stands in its way any longer.
        { status: "completed", processingError: null, updatedAt: now(), textEditedAt: null, ...fields, ...items.text },
        opts.updated ? "note.updated" : "note.completed",
        async () => {
          await repos.actionItems.replaceForNote(note.id, items.rows);
          // What the machine wrote anew, kept beside what people wrote (note-history.ts).
          await history.machineWrote(
            note,
            {
              summary: items.text.summary ?? fields.summary,
              enhancedNote: items.text.enhancedNote ?? fields.enhancedNote,
              ...(fields.title !== undefined && fields.title !== note.title ? { title: fields.title } : {}),
            },
            fields.processingInfo.summary ?? "the machine",
          );
        },
      );
    },

    /**
     * No speech-to-text engine can transcribe the recording now: the note keeps it and
     * says why, and waits (with the facts that made it wait) to be tried again once an
     * engine appears.
     */
    async awaitingEngine(noteId: string, reason: string, facts: string): Promise<void> {
      const note = await current(noteId);
      if (!note || !canMove(note.status, "recorded-not-summarized")) return;
      await settle(
        noteId,
        {
          status: "recorded-not-summarized",
          processingError: `Waiting for a speech-to-text engine; the recording is kept and will be transcribed as soon as one is set up. ${reason}`,
          processingInfo: { ...(note.processingInfo ?? {}), awaitingEngine: facts },
          awaitingEngineSince: note.awaitingEngineSince ?? now(),
          updatedAt: now(),
        },
        "note.completed",
      );
    },

    /** Processing failed for good: the note keeps what it has and says why. */
    async failed(noteId: string, stageError: (status: NoteStatus) => string): Promise<void> {
      const note = await current(noteId);
      if (!note) return; // deleted meanwhile
      if (!canMove(note.status, "recorded-not-summarized")) return; // settled meanwhile
      await settle(
        noteId,
        { status: "recorded-not-summarized", processingError: stageError(note.status), updatedAt: now() },
        "note.completed",
      );
    },
  };
}

export type NoteLifecycle = ReturnType<typeof createNoteLifecycle>;
