// The rules of notes: listing with filters, reading, creating from text, updating
// and deleting, always within the caller's workspace and visibility.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/repos/notes.js";
import { newId } from "../core/ids.js";
import type { NoteCreateInput, NoteDto, NoteListQueryInput } from "../shared/schemas/notes.js";
import { BadRequestError, ConflictError, NotFoundError } from "../core/errors.js";
import type { EmitEvent } from "../webhooks/events.js";
import { paginate } from "./pagination.js";
import type { Principal } from "../core/principal.js";
import { iso, type Clock } from "../core/clock.js";
import { fromTimestamp, toTimestamp } from "../core/transcript-time.js";

/** The job queue's idempotency key for a note's processing. */
export const processingKey = (noteId: string) => `process-note:${noteId}`;

export interface NoteUpdate {
  title?: string;
  visibility?: NoteRow["visibility"];
  userWrittenNote?: string;
  folderIds?: string[];
}

export interface NoteServiceDeps {
  enqueueProcessing: (noteId: string) => void;
  /** Records a workspace event (webhooks) in the caller's transaction. */
  emit: EmitEvent;
  enqueueIndexing: (source: "note", id: string) => void;
}

export function createNoteService(repos: Repositories, now: Clock, deps: NoteServiceDeps) {
  const { enqueueProcessing, emit, enqueueIndexing } = deps;
  /**
   * The single-read shape. List items are rendered by the repository (listItemJson)
   * with the same fields; test/server/notes-shape.test.ts holds the two together.
   */
  function present(
    row: NoteRow,
    tags: { id: string; name: string; color: string }[],
    full: { enhancedNote: string; summary: string; transcripts: NoteDto["transcripts"] },
  ): NoteDto {
    return {
      id: row.id,
      title: row.title,
      kind: row.kind,
      status: row.status as NoteDto["status"],
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      visibility: row.visibility,
      tags,
      participants: row.participants,
      totalDurationSec: row.totalDurationSec,
      userWrittenNote: row.userWrittenNote,
      enhancedNote: full.enhancedNote,
      summary: full.summary,
      transcripts: full.transcripts,
      calendarEvent: (row.calendarEvent as NoteDto["calendarEvent"]) ?? null,
      inputLanguage: row.inputLanguage,
      translationLanguage: row.translationLanguage,
      meetingApp: row.meetingApp,
      processingError: row.processingError,
      processingInfo: row.processingInfo ?? null,
    };
  }

  function requireFolders(workspaceId: string, ids: string[], field: string): string[] {
    const unique = [...new Set(ids)];
    const found = new Set(repos.folders.existing(workspaceId, unique).map((f) => f.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw new BadRequestError(`${field}: no folder ${missing.join(", ")} in this workspace.`);
    return unique;
  }

  function presentFull(row: NoteRow): NoteDto {
    const id = row.id;
    const transcripts = repos.notes.segmentsOf(id).map((s) => ({
      speaker: s.speaker,
      text: s.text,
      startTimestamp: toTimestamp(s.startSec),
      endTimestamp: toTimestamp(s.endSec),
    }));
    return present(row, repos.notes.foldersOf([id]).get(id) ?? [], {
      enhancedNote: row.enhancedNote,
      summary: row.summary,
      transcripts,
    });
  }

  function get(p: Principal, id: string): NoteDto {
    const row = repos.notes.get(p.workspaceId, p.userId, id);
    if (!row) throw new NotFoundError(`Note ${id} not found.`);
    return presentFull(row);
  }

  /** The note as events carry it: the full single-read shape. */
  function snapshot(id: string): NoteDto | null {
    const row = repos.notes.getForProcessing(id);
    return row ? presentFull(row) : null;
  }

  function emitCreated(workspaceId: string, id: string) {
    emit(workspaceId, "note.created", { note: snapshot(id) });
  }

  /** A page of notes, each item already JSON text (rendered by the repository). */
  function listJson(p: Principal, q: NoteListQueryInput) {
    const folderIds = q.folderIds ?? q.tagIds;
    const rows = repos.notes.listJson(p.workspaceId, p.userId, {
      limit: q.limit,
      offset: q.offset,
      sortBy: q.sortBy,
      sortOrder: q.sortOrder,
      status: q.status,
      kind: q.kind,
      search: q.search?.trim() || undefined,
      createdBy: q.createdBy,
      fromDate: q.fromDate,
      toDate: q.toDate,
      folderIds: folderIds?.length ? folderIds : undefined,
      participantEmail: q.participantEmail?.trim() || undefined,
    });
    const { page, pagination } = paginate(rows, q.limit, q.offset);
    return { items: page, pagination };
  }

  return {
    get,
    snapshot,

    listJson,

    list(p: Principal, q: NoteListQueryInput): { items: NoteDto[]; pagination: ReturnType<typeof paginate>["pagination"] } {
      const { items, pagination } = listJson(p, q);
      return { items: items.map((j) => JSON.parse(j) as NoteDto), pagination };
    },


    create(p: Principal, input: NoteCreateInput): NoteDto {
      const t = now();
      const createdAt = input.createdAt ? Date.parse(input.createdAt) : t;
      const folderIds = requireFolders(p.workspaceId, input.folderIds ?? [], "folderIds");
      const segments = (input.transcripts ?? []).map((s) => ({
        speaker: s.speaker,
        text: s.text,
        startSec: fromTimestamp(s.startTimestamp),
        endSec: fromTimestamp(s.endTimestamp),
      }));
      const summarized = Boolean(input.summary || input.enhancedNote);
      const id = newId("note");
      repos.transaction(() => {
        repos.notes.insert({
          row: {
            id,
            workspaceId: p.workspaceId,
            createdBy: p.userId,
            title: input.title,
            kind: input.kind ?? "online",
            // A transcript without a summary is summarized like a recording; anything else is done.
            status: segments.length && !summarized ? "summarizing" : "completed",
            visibility: input.visibility ?? "workspace",
            userWrittenNote: input.userWrittenNote ?? "",
            enhancedNote: input.enhancedNote ?? "",
            summary: input.summary ?? "",
            totalDurationSec: Math.round(input.totalDurationSec ?? (segments.length ? Math.max(...segments.map((s) => s.endSec)) : 0)),
            participants: input.participants ?? [],
            calendarEvent: (input.calendarEvent as Record<string, unknown> | null | undefined) ?? null,
            inputLanguage: input.inputLanguage ?? null,
            translationLanguage: null,
            meetingApp: input.meetingApp ?? null,
            processingError: null,
            audioUploadId: null,
            processingInfo: summarized ? { summary: "provided" } : null,
            createdAt,
            updatedAt: Math.max(createdAt, t),
          },
          segments,
          folderIds,
        });
        emitCreated(p.workspaceId, id);
        if (segments.length && !summarized) enqueueProcessing(id);
        enqueueIndexing("note", id);
      });
      return get(p, id);
    },

    /** A note for an uploaded recording, waiting for processing (status postprocessing). */
    createFromAudio(
      p: Principal,
      input: { title?: string; calendarEventId?: string; folderId?: string; audioUploadId: string; declaredDurationSec: number },
    ): { id: string } {
      const t = now();
      const folderIds = input.folderId ? requireFolders(p.workspaceId, [input.folderId], "folderId") : [];
      const id = newId("note");
      repos.notes.insert({
        row: {
          id,
          workspaceId: p.workspaceId,
          createdBy: p.userId,
          title: input.title?.trim() || `Recording ${iso(t).slice(0, 16).replace("T", " ")} UTC`,
          kind: "online",
          status: "postprocessing",
          visibility: "workspace",
          userWrittenNote: "",
          enhancedNote: "",
          summary: "",
          totalDurationSec: input.declaredDurationSec,
          participants: [],
          // Only the id is known; the other fields stay empty until a calendar integration fills them.
          calendarEvent: input.calendarEventId
            ? { id: input.calendarEventId, href: "", title: "", startsAt: "", endsAt: "", createdAt: "", updatedAt: "", calendarId: "", attendees: [] }
            : null,
          inputLanguage: null,
          translationLanguage: null,
          meetingApp: null,
          processingError: null,
          audioUploadId: input.audioUploadId,
          processingInfo: null,
          createdAt: t,
          updatedAt: t,
        },
        segments: [],
        folderIds,
      });
      emitCreated(p.workspaceId, id);
      return { id };
    },

    update(p: Principal, id: string, patch: NoteUpdate): NoteDto {
      if (!repos.notes.get(p.workspaceId, p.userId, id)) throw new NotFoundError(`Note ${id} not found.`);
      const folderIds = patch.folderIds ? requireFolders(p.workspaceId, patch.folderIds, "folderIds") : undefined;
      const fields: Partial<NoteRow> = { updatedAt: now() };
      if (patch.title !== undefined) fields.title = patch.title;
      if (patch.visibility !== undefined) fields.visibility = patch.visibility;
      if (patch.userWrittenNote !== undefined) fields.userWrittenNote = patch.userWrittenNote;
      repos.transaction(() => {
        repos.notes.update(p.workspaceId, id, fields, folderIds);
        if (patch.title !== undefined || patch.userWrittenNote !== undefined) enqueueIndexing("note", id);
      });
      return get(p, id);
    },

    /** Runs the processing again: from the recording if there is one, else from the transcript. */
    reprocess(p: Principal, id: string): NoteDto {
      const row = repos.notes.get(p.workspaceId, p.userId, id);
      if (!row) throw new NotFoundError(`Note ${id} not found.`);
      if (repos.jobs.hasUnfinished(processingKey(id))) throw new ConflictError(`Note ${id} is being processed already.`);
      const hasTranscript = repos.notes.segmentsOf(id).length > 0;
      if (!row.audioUploadId && !hasTranscript) throw new BadRequestError(`Note ${id} has neither a recording nor a transcript to process.`);
      repos.transaction(() => {
        repos.notes.setProcessingState(id, {
          status: row.audioUploadId ? "postprocessing" : "summarizing",
          processingError: null,
          updatedAt: now(),
        });
        enqueueProcessing(id);
      });
      return get(p, id);
    },

    delete(p: Principal, id: string): void {
      if (!repos.notes.delete(p.workspaceId, p.userId, id)) throw new NotFoundError(`Note ${id} not found.`);
      repos.passages.remove("note", id);
    },
  };
}

export type NoteService = ReturnType<typeof createNoteService>;
