// Correcting a note's transcript: a line's words, who said it (that line, or the lines
// from it on that the same voice was given), deleting a line, splitting one at a word.
// Each line has an id that stays through corrections and a version that counts them;
// an edit names the version it read, and the store changes the line only if it is
// still that one (one conditional write, on either database), so that of two tabs
// editing one line exactly one wins and the other gets 409 with the line as it is now.
// The corrected transcript is what search reads at once (the store rewrites the note's
// search rows with it), and its passages for meaning are indexed again behind it.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow, SegmentRow, StoredSegment } from "../db/stores/note-store.js";
import { BadRequestError, ConflictError, NotFoundError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import type { Jobs } from "../jobs/job.js";
import { newId } from "../core/ids.js";
import { SETTLED_STATUSES } from "../core/note-vocabulary.js";
import { presentSegment } from "./note-presenter.js";
import { planActionItems } from "./action-items.js";
import { namesCorrected, termsAdded, withNamesCorrected } from "../core/name-corrections.js";
import type { VocabularyOffers } from "./vocabulary-offers.js";
import type { LineChange, NoteHistory } from "./note-history.js";
import type { TranscriptLineDto } from "../shared/schemas/transcript-edits.js";

export interface TranscriptEditDeps {
  repos: Repositories;
  now: Clock;
  /** The note as the caller may see (and so edit) it, else not found: the note service's one check. */
  visibleRow(p: Principal, id: string): Promise<NoteRow>;
  jobs: Jobs;
  /** Where the names and terms a correction writes are offered for the workspace's vocabulary. */
  vocabulary: VocabularyOffers;
  /** Where each correction is kept, with who made it. */
  history: NoteHistory;
}

export interface LineEdit {
  version: number;
  text?: string;
  /** Who said it: a speaker's name or label as the transcript shows it, or a new name. */
  speaker?: string;
  /** Give the lines after it that had the same speaker to the new one too. */
  fromHereOn?: boolean;
}

export function createTranscriptEdits({ repos, now, visibleRow, jobs, vocabulary, history }: TranscriptEditDeps) {
  /** The note, if its transcript may be corrected now: not while recording or processing writes it. */
  async function editable(p: Principal, noteId: string) {
    const row = await visibleRow(p, noteId);
    if (!SETTLED_STATUSES.has(row.status))
      throw new ConflictError(
        `Note ${noteId} is being recorded or processed (${row.status}): its transcript can be corrected once that is done.`,
        undefined,
        5,
      );
    return row;
  }

  /**
   * Claims the line at the version the caller read, then writes the transcript `change`
   * makes of it, in one transaction. A line gone is 404; a line changed since is 409
   * with the line as it is now.
   */
  async function correct(
    p: Principal,
    noteId: string,
    segmentId: string,
    version: number,
    change: (segments: StoredSegment[], at: number) => SegmentRow[],
    /** What else the correction changes, in its transaction. */
    alongside?: (row: NoteRow, before: StoredSegment) => Promise<void>,
  ): Promise<StoredSegment[]> {
    const row = await editable(p, noteId);
    const next = await repos.transaction(async () => {
      if (!(await repos.notes.claimSegment(noteId, segmentId, version))) {
        const current = (await repos.notes.segmentsOf(noteId)).find((s) => s.id === segmentId);
        if (!current)
          throw new NotFoundError(
            `Line ${segmentId} not found in note ${noteId}: it was deleted, or the note was transcribed again.`,
          );
        const names = await repos.speakers.namesOf(noteId);
        throw new ConflictError(
          `Line ${segmentId} was changed since version ${version} (it is at version ${current.version}): read it again and repeat the correction.`,
        ).withCurrent(presentSegment(current, names));
      }
      const segments = await repos.notes.segmentsOf(noteId);
      const at = segments.findIndex((s) => s.id === segmentId);
      const written = change(segments, at);
      await repos.notes.replaceTranscript(noteId, written, { updatedAt: now() });
      await alongside?.(row, segments[at]);
      const before = segments[at];
      const after = written.find((s) => (s as StoredSegment).id === segmentId) ?? null;
      // A split's new line: the one written that was not there before.
      const rest =
        written.length > segments.length
          ? (written as StoredSegment[]).find((s) => !segments.some((o) => o.id === s.id))
          : undefined;
      await history.lineCorrected(p, row, {
        lineId: segmentId,
        startSec: before.startSec,
        endSec: before.endSec,
        change: !after ? "delete" : rest ? "split" : "edit",
        before: { speaker: before.speaker, text: before.text },
        after: after ? { speaker: after.speaker, text: after.text } : null,
        ...(rest ? { rest: { id: rest.id, speaker: rest.speaker, text: rest.text } } : {}),
      });
      await jobs.enqueue("index-passages", { source: "note", id: noteId });
      return written;
    });
    return next as StoredSegment[];
  }

  /** Writes a restored transcript, and keeps the restore in the history as a change of its own. */
  async function restored(p: Principal, row: NoteRow, written: SegmentRow[], line: LineChange) {
    await repos.notes.replaceTranscript(row.id, written, { updatedAt: now() });
    await history.lineCorrected(p, row, { ...line, change: "restore", after: line.before, rest: undefined });
    await jobs.enqueue("index-passages", { source: "note", id: row.id });
  }

  /** A speaker as given (a name the transcript shows, a label, or a new name) → the label lines carry. */
  async function labelFor(noteId: string, segments: StoredSegment[], speaker: string): Promise<string> {
    const wanted = speaker.trim().toLowerCase();
    for (const [label, n] of await repos.speakers.namesOf(noteId)) if (n.name?.toLowerCase() === wanted) return label;
    return segments.find((s) => s.speaker.toLowerCase() === wanted)?.speaker ?? speaker.trim();
  }

  /** The summary and enhanced note with the names a line's correction changed written anew, and their action items kept in step. */
  async function correctNames(row: NoteRow, before: string, after: string) {
    const pairs = namesCorrected(before, after);
    if (!pairs.length) return;
    const text = {
      // A title a person gave is theirs; one made from what was said follows it.
      title: row.titleFromContent ? withNamesCorrected(row.title, pairs) : row.title,
      summary: withNamesCorrected(row.summary, pairs),
      enhancedNote: withNamesCorrected(row.enhancedNote, pairs),
    };
    if (text.title === row.title && text.summary === row.summary && text.enhancedNote === row.enhancedNote) return;
    const items = await planActionItems(repos, { ...row, ...text }, now());
    await repos.notes.update(row.workspaceId, row.id, { ...text, ...items.text, updatedAt: now() });
    await repos.actionItems.replaceForNote(row.id, items.rows);
  }

  async function shown(noteId: string, segments: StoredSegment[], ids: string[]): Promise<TranscriptLineDto[]> {
    const names = await repos.speakers.namesOf(noteId);
    return ids.map((id) =>
      presentSegment(
        segments.find((s) => s.id === id)!,
        names,
      ),
    );
  }

  return {
    /** Changes a line's words or speaker; the line as it now is (and any others given to the speaker with it). */
    async edit(p: Principal, noteId: string, segmentId: string, body: LineEdit) {
      if (body.fromHereOn && body.speaker === undefined)
        throw new BadRequestError("fromHereOn: gives the following lines to a new speaker, so it needs speaker.");
      if (body.text === undefined && body.speaker === undefined)
        throw new BadRequestError("Nothing to change: give text, speaker, or both (a line is deleted with DELETE).");
      const before = await repos.notes.segmentsOf(noteId);
      const label = body.speaker === undefined ? null : await labelFor(noteId, before, body.speaker);
      const changed: string[] = [];
      let corrected: string[] = [];
      const written = await correct(
        p,
        noteId,
        segmentId,
        body.version,
        (segments, at) => {
          const old = segments[at].speaker;
          return segments.map((s, i) => {
            const target = i === at;
            const follows = body.fromHereOn && i > at && s.speaker === old && label !== null;
            if (!target && !follows) return s;
            changed.push(s.id);
            return {
              ...s,
              text: target && body.text !== undefined ? body.text.trim() : s.text,
              speaker: label ?? s.speaker,
              version: s.version + 1,
            };
          });
        },
        // A name heard wrong is wrong in what was written from it too.
        async (row, before) => {
          if (body.text === undefined) return;
          await correctNames(row, before.text, body.text);
          corrected = termsAdded(before.text, body.text);
        },
      );
      // What the engine misheard, offered so that the next meeting spells it right.
      const offered = await vocabulary.offer(p.workspaceId, corrected);
      return {
        lines: await shown(noteId, written as StoredSegment[], changed),
        ...(offered.length ? { vocabularyOffered: offered } : {}),
      };
    },

    /** Deletes a line (a line the engine invented, words nobody said). */
    async remove(p: Principal, noteId: string, segmentId: string, version: number) {
      await correct(p, noteId, segmentId, version, (segments, at) => segments.filter((_, i) => i !== at));
    },

    /** Puts a deleted line back where its time places it, with its id (a restore of its deletion). */
    async reinsert(p: Principal, noteId: string, line: LineChange) {
      const row = await editable(p, noteId);
      await repos.transaction(async () => {
        const segments = await repos.notes.segmentsOf(noteId);
        if (segments.some((s) => s.id === line.lineId))
          throw new ConflictError(`Line ${line.lineId} is in the transcript of note ${noteId} already.`);
        const back = {
          id: line.lineId,
          version: 1,
          speaker: line.before.speaker,
          text: line.before.text,
          startSec: line.startSec,
          endSec: line.endSec ?? line.startSec,
        };
        const at = segments.findIndex((s) => s.startSec > line.startSec);
        const written = at === -1 ? [...segments, back] : [...segments.slice(0, at), back, ...segments.slice(at)];
        await restored(p, row, written, line);
      });
    },

    /** Joins a split line again, as it was before the split, when both its parts are as the split left them. */
    async join(p: Principal, noteId: string, line: LineChange) {
      const row = await editable(p, noteId);
      const rest = line.rest!;
      await repos.transaction(async () => {
        const segments = await repos.notes.segmentsOf(noteId);
        const first = segments.find((s) => s.id === line.lineId);
        const second = segments.find((s) => s.id === rest.id);
        if (!first || !second)
          throw new NotFoundError(
            `The two lines split from line ${line.lineId} are no longer both in note ${noteId}: one was deleted, or the note was transcribed again.`,
          );
        const same = (s: StoredSegment, was: { speaker: string; text: string }) =>
          s.speaker === was.speaker && s.text === was.text;
        if (!same(first, line.after!) || !same(second, rest))
          throw new ConflictError(
            `The two lines split from line ${line.lineId} were corrected since: undo those corrections first, or edit the line.`,
          );
        const written = segments
          .filter((s) => s.id !== rest.id)
          .map((s) =>
            s.id === line.lineId
              ? { ...s, ...line.before, endSec: line.endSec ?? second.endSec, version: s.version + 1 }
              : s,
          );
        await restored(p, row, written, line);
      });
    },

    /**
     * Splits a line before its `atWord`-th word (1 = after the first word): the first
     * part keeps the line's id, the rest is a new line; the time between is shared by words.
     */
    async split(p: Principal, noteId: string, segmentId: string, body: { version: number; atWord: number }) {
      let ids: string[] = [];
      const written = await correct(p, noteId, segmentId, body.version, (segments, at) => {
        const s = segments[at];
        const words = s.text.split(/\s+/).filter(Boolean);
        if (body.atWord < 1 || body.atWord >= words.length)
          throw new BadRequestError(
            `atWord: the line has ${words.length} word${words.length === 1 ? "" : "s"}; split it after word 1 to ${Math.max(1, words.length - 1)}.`,
          );
        const cut = Math.round(s.startSec + ((s.endSec - s.startSec) * body.atWord) / words.length);
        const rest: SegmentRow & { id: string; version: number } = {
          id: newId("seg"),
          version: 1,
          speaker: s.speaker,
          text: words.slice(body.atWord).join(" "),
          startSec: cut,
          endSec: s.endSec,
        };
        ids = [s.id, rest.id];
        const first = { ...s, text: words.slice(0, body.atWord).join(" "), endSec: cut, version: s.version + 1 };
        return [...segments.slice(0, at), first, rest, ...segments.slice(at + 1)];
      });
      return { lines: await shown(noteId, written as StoredSegment[], ids) };
    },
  };
}

export type TranscriptEdits = ReturnType<typeof createTranscriptEdits>;
