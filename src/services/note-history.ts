// A note's history: every part a person writes (its title, their notes, the summary,
// the enhanced note, a transcript line's correction) and every part the machine writes
// anew (processing, Enhance), kept with who wrote it and when; any version of a text
// part can be restored, and a line's correction undone. A restore is itself an edit,
// so it is in the history too. A person's saves of one part within ten minutes are one
// version: the notepad saves as they type, and each keystroke is no version. A note
// older than its history gets its text as it stood before a person's first edit, so
// that the edit can always be undone. Audio is never part of it.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { NoteVersionRow } from "../db/repos/note-versions.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import { iso } from "../core/clock.js";
import { newId } from "../core/ids.js";
import { BadRequestError, NotFoundError } from "../core/errors.js";
import { paginate } from "./pagination.js";
import type { NoteDto } from "../shared/schemas/notes.js";
import type { NoteVersionDto, TextPart } from "../shared/schemas/note-history.js";

/** A person's saves of one part this close together are one version. */
export const SAME_VERSION_MS = 10 * 60_000;

type TextParts = Partial<Record<TextPart, string>>;

/** A line's correction, as its version holds it. */
export interface LineChange {
  lineId: string;
  startSec: number;
  /** "restore": a deleted line put back, or a split line joined again. */
  change: "edit" | "delete" | "split" | "restore";
  before: { speaker: string; text: string };
  after: { speaker: string; text: string } | null;
  /** The line's end before the change (kept since deletions and splits are restorable). */
  endSec?: number;
  /** A split: the line it made of the words after the cut, as it made it. */
  rest?: { id: string; speaker: string; text: string };
}

/** Whether a line's change can be undone: an edit, and a deletion or split that kept what undoing it needs. */
const undoable = (line: LineChange) =>
  line.change === "edit" ||
  (line.change === "delete" && line.endSec !== undefined) ||
  (line.change === "split" && line.endSec !== undefined && line.rest !== undefined);

export function createNoteHistory(repos: Repositories, now: Clock) {
  const nameOf = async (userId: string) => (await repos.users.get(userId))?.name || "A member";

  async function add(
    note: Pick<NoteRow, "id" | "workspaceId">,
    part: string,
    content: string,
    by: { userId: string | null; writtenBy: string },
  ) {
    const t = now();
    await repos.noteVersions.add({
      id: newId("nv"),
      workspaceId: note.workspaceId,
      noteId: note.id,
      part,
      content,
      userId: by.userId,
      writtenBy: by.writtenBy,
      createdAt: t,
      updatedAt: t,
    });
  }

  return {
    /** The machine wrote these parts anew (`by`: what wrote them). */
    async machineWrote(note: Pick<NoteRow, "id" | "workspaceId">, parts: TextParts, by: string): Promise<void> {
      for (const [part, content] of Object.entries(parts))
        await add(note, part, content, { userId: null, writtenBy: by });
    },

    /** A person wrote these parts of `before` (the note as it was). */
    async personWrote(p: Principal, before: NoteRow, parts: TextParts): Promise<void> {
      const writtenBy = await nameOf(p.userId);
      for (const [part, content] of Object.entries(parts) as [TextPart, string][]) {
        if (content === before[part]) continue;
        const last = await repos.noteVersions.latest(before.id, part);
        if (last && last.userId === p.userId && now() - last.updatedAt < SAME_VERSION_MS) {
          await repos.noteVersions.rewrite(last.id, content, now());
          continue;
        }
        // The text as it stood, when nothing of it is kept yet.
        if (!last && before[part])
          await add(before, part, before[part], {
            userId: null,
            writtenBy:
              part === "title" || part === "userWrittenNote"
                ? "as it was"
                : (before.processingInfo?.summary ?? "as it was"),
          });
        await add(before, part, content, { userId: p.userId, writtenBy });
      }
    },

    /** A person corrected a line of the transcript. */
    async lineCorrected(p: Principal, note: NoteRow, change: LineChange): Promise<void> {
      await add(note, "transcriptLine", JSON.stringify(change), {
        userId: p.userId,
        writtenBy: await nameOf(p.userId),
      });
    },
  };
}

export type NoteHistory = ReturnType<typeof createNoteHistory>;

function present(row: NoteVersionRow): NoteVersionDto {
  const line = row.part === "transcriptLine" ? (JSON.parse(row.content) as LineChange) : null;
  return {
    id: row.id,
    part: row.part as NoteVersionDto["part"],
    writtenBy: row.writtenBy,
    byPerson: row.userId !== null,
    userId: row.userId,
    at: iso(row.updatedAt),
    content: line ? null : row.content,
    line: line
      ? { lineId: line.lineId, startSec: line.startSec, change: line.change, before: line.before, after: line.after }
      : null,
    restorable: !line || undoable(line),
  };
}

/** The history's reads and its restore, for the note service (whose checks they go through). */
export function noteHistoryReads(deps: {
  repos: Repositories;
  visibleRow: (p: Principal, id: string) => Promise<NoteRow>;
  /** The note service's own edit: a restore is an edit, checked and kept as one. */
  update: (p: Principal, id: string, patch: TextParts) => Promise<NoteDto>;
  get: (p: Principal, id: string) => Promise<NoteDto>;
  editLine: (
    p: Principal,
    noteId: string,
    lineId: string,
    edit: { version: number; text: string; speaker: string },
  ) => Promise<unknown>;
  /** A deleted line put back, a split line joined again (transcript-edits.ts). */
  lines: {
    reinsert(p: Principal, noteId: string, line: LineChange): Promise<void>;
    join(p: Principal, noteId: string, line: LineChange): Promise<void>;
  };
}) {
  const { repos, visibleRow } = deps;
  return {
    async history(p: Principal, id: string, q: { limit: number; offset: number }) {
      await visibleRow(p, id);
      const rows = await repos.noteVersions.forNote(id, q.limit + 1, q.offset);
      const { page, pagination } = paginate(rows, q.limit, q.offset);
      return { items: page.map(present), pagination };
    },

    /** Makes a version the note's again: a text part as it was then, or a line as it was before its correction. */
    async restore(p: Principal, id: string, versionId: string): Promise<NoteDto> {
      await visibleRow(p, id);
      const row = await repos.noteVersions.get(id, versionId);
      if (!row) throw new NotFoundError(`Version ${versionId} not found in note ${id}.`);
      if (row.part !== "transcriptLine") return deps.update(p, id, { [row.part]: row.content });
      const line = JSON.parse(row.content) as LineChange;
      if (!undoable(line))
        throw new BadRequestError(
          line.change === "restore"
            ? `Version ${versionId} put a line back: delete or split the line again to undo it.`
            : `Version ${versionId} ${line.change === "delete" ? "deleted" : "split"} a line before its history kept what undoing it needs; process the recording again for the engine's transcript.`,
        );
      if (line.change === "delete") {
        await deps.lines.reinsert(p, id, line);
        return deps.get(p, id);
      }
      if (line.change === "split") {
        await deps.lines.join(p, id, line);
        return deps.get(p, id);
      }
      const now = (await repos.notes.segmentsOf(id)).find((s) => s.id === line.lineId);
      if (!now)
        throw new NotFoundError(
          `Line ${line.lineId} is no longer in note ${id}: the note was transcribed again, or the line deleted.`,
        );
      await deps.editLine(p, id, line.lineId, {
        version: now.version,
        text: line.before.text,
        speaker: line.before.speaker,
      });
      return deps.get(p, id);
    },
  };
}
