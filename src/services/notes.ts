// The rules of notes: listing with filters, reading, creating from text, updating
// and deleting, always within the caller's workspace and visibility.
import type { Repositories } from "../db/repos/index.js";
import type { ListProjection, NoteRow } from "../db/stores/note-store.js";
import { newId } from "../core/ids.js";
import type { NoteBrief, NoteCreateInput, NoteDto, NoteListQueryInput } from "../shared/schemas/notes.js";
import { noteShareLinks, syncShare } from "./note-shares.js";
import { audioKey } from "../storage/audio-key.js";
import { BadRequestError, ConflictError, NotFoundError } from "../core/errors.js";
import { importedOnce } from "./note-imports.js";
import { paginate } from "./pagination.js";
import type { Principal } from "../core/principal.js";
import { iso, type Clock } from "../core/clock.js";
import { fromTimestamp } from "../core/transcript-time.js";
import type { NoteLifecycle } from "./note-lifecycle.js";
import { SETTLED_STATUSES } from "../core/note-vocabulary.js";
import { planActionItems } from "./action-items.js";
import { noteRewrites } from "./note-rewrites.js";
import { presentFullNote } from "./note-presenter.js";
import { noteSpeakers, type NoteSpeakerDeps } from "./note-speakers.js";
import { createTranscriptEdits } from "./transcript-edits.js";
import { ownNotes } from "./own-notes.js";
import { noteViews } from "./note-view.js";
import { createNoteHistory, noteHistoryReads } from "./note-history.js";
import type { VocabularyOffers } from "./vocabulary-offers.js";
import type { TemplateService } from "./templates.js";
import type { Access } from "./access.js";
import { defaultVisibility, folderPolicy, notePolicy, noteView, type Actor } from "../core/access.js";
import { noteAudio, type AudioRef } from "./note-audio.js";
import { meetingChange, meetingFields, withAdded, type CalendarLookup } from "./note-meeting.js";
import type { ParticipantValue } from "../db/schema/notes.js";
import type { Jobs } from "../jobs/job.js";

export interface NoteUpdate {
  title?: string;
  visibility?: NoteRow["visibility"];
  userWrittenNote?: string;
  /** The summary and enhanced note as a person corrected them. */
  summary?: string;
  enhancedNote?: string;
  folderIds?: string[];
  participants?: ParticipantValue[];
  addParticipants?: Partial<ParticipantValue>[]; // join those on the note; none is removed
  calendarEventId?: string | null;
}

export interface NoteServiceDeps extends Pick<NoteSpeakerDeps, "voicePrints"> {
  lifecycle: NoteLifecycle;
  /** Indexing for search by meaning, and the durable removal of a deleted note's recording. */
  jobs: Jobs;
  /** For share links. */
  publicUrl: string;
  /** Removes a deleted note's recording from the audio store at once (best effort). */
  deleteRecording: (key: string) => Promise<void>;
  /** Which template a note is enhanced with. */
  templates: Pick<TemplateService, "require" | "forNote">;
  /** Who may see and change which note: the access policy's facts. */
  access: Access;
  /** The caller's calendar event by id, for a note made of a meeting. */
  calendarEvent?: CalendarLookup;
  /** Where a transcript correction's names and terms are offered for the vocabulary. */
  vocabulary: VocabularyOffers;
}

export function createNoteService(repos: Repositories, now: Clock, deps: NoteServiceDeps) {
  const { lifecycle, jobs, access } = deps;
  const history = createNoteHistory(repos, now);
  // The service's own edit, for a restore (which is an edit): set once the service is made.
  const self = {} as { update(p: Principal, id: string, patch: NoteUpdate): Promise<NoteDto> };
  const transcript = createTranscriptEdits({ repos, now, visibleRow, jobs, vocabulary: deps.vocabulary, history });

  /** Folders a note may be filed in by this caller: those they can see (any other is "no folder"). */
  async function requireFolders(a: Actor, ids: string[], field: string): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = new Set(
      (await repos.folders.existing(a.workspaceId, unique))
        .filter((f) => folderPolicy.file(a, access.folderFacts(f)))
        .map((f) => f.id),
    );
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw new BadRequestError(`${field}: no folder ${missing.join(", ")} in this workspace.`);
    return unique;
  }

  /** A new note's visibility when its creator names none: read with the credential, or now. */
  async function newNoteVisibility(p: Principal) {
    return p.newNoteVisibility ?? defaultVisibility((await repos.workspaces.get(p.workspaceId))?.settings ?? {});
  }

  /** The note as this caller may see it, else 404 (another workspace's, only-me, in a private folder). */
  async function visibleRow(p: Principal | Actor, id: string): Promise<NoteRow> {
    const row = await repos.notes.get("hiddenFolderIds" in p ? noteView(p) : await access.view(p), id);
    if (!row) throw new NotFoundError(`Note ${id} not found.`);
    return row;
  }

  async function get(p: Principal, id: string): Promise<NoteDto> {
    const a = await access.actor(p);
    const read = await repos.notes.getWithParts(noteView(a), id);
    // The store read it through the policy's rule as SQL; the policy is asked again here,
    // on the facts the read brought, so a single note never rests on the filter alone.
    if (!read || !notePolicy.see(a, { ...read.row, folderIds: read.tags.map((t) => t.id) }))
      throw new NotFoundError(`Note ${id} not found.`);
    return presentFullNote(repos, read.row, deps.publicUrl, read);
  }

  /** A page of notes, each item already JSON text (rendered by the repository). */
  async function listJson(p: Principal, q: NoteListQueryInput, projection: ListProjection = "item") {
    const folderIds = q.folderIds ?? q.tagIds;
    const rows = await repos.notes.listJson(
      await access.view(p),
      {
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
        updatedAfter: q.updatedAfter,
        folderIds: folderIds?.length ? folderIds : undefined,
        participantEmail: q.participantEmail?.trim() || undefined,
      },
      projection,
    );
    const { page, pagination } = paginate(rows, q.limit, q.offset);
    return { items: page, pagination };
  }

  const service = {
    get,

    listJson,

    async list(
      p: Principal,
      q: NoteListQueryInput,
    ): Promise<{ items: NoteDto[]; pagination: ReturnType<typeof paginate>["pagination"] }> {
      const { items, pagination } = await listJson(p, q);
      return { items: items.map((j) => JSON.parse(j) as NoteDto), pagination };
    },

    /** The same page as `list`, each note as a brief: what a page listing notes shows. */
    async briefs(
      p: Principal,
      q: NoteListQueryInput,
    ): Promise<{ items: NoteBrief[]; pagination: ReturnType<typeof paginate>["pagination"] }> {
      const { items, pagination } = await listJson(p, q, "brief");
      return { items: items.map((j) => JSON.parse(j) as NoteBrief), pagination };
    },

    async create(p: Principal, input: NoteCreateInput, audio: { uploadId?: string } = {}): Promise<NoteDto> {
      const t = now();
      const createdAt = input.createdAt ? Date.parse(input.createdAt) : t;
      const folderIds = await requireFolders(await access.actor(p), input.folderIds ?? [], "folderIds");
      const segments = (input.transcripts ?? []).map((s) => ({
        speaker: s.speaker,
        text: s.text,
        startSec: fromTimestamp(s.startTimestamp),
        endSec: fromTimestamp(s.endTimestamp),
      }));
      const summarized = Boolean(input.summary || input.enhancedNote);
      const meeting = await meetingFields(deps.calendarEvent, p, {
        calendarEventId: input.calendarEventId,
        calendarEvent: input.calendarEvent as Record<string, unknown> | null | undefined,
        participants: input.participants as ParticipantValue[] | undefined,
        meetingApp: input.meetingApp,
      });
      await importedOnce(repos, p.workspaceId, input.sourceHash);
      const id = newId("note");
      const visibility = input.visibility ?? (await newNoteVisibility(p));
      // A transcript without a summary is summarized like a recording; anything else is done.
      const status = segments.length && !summarized ? "summarizing" : "completed";
      await repos
        .transaction(async () => {
          await repos.notes.insert({
            row: {
              id,
              workspaceId: p.workspaceId,
              createdBy: p.userId,
              sourceHash: input.sourceHash ?? null,
              title: input.title,
              kind: input.kind ?? "online",
              status,
              visibility,
              userWrittenNote: input.userWrittenNote ?? "",
              enhancedNote: input.enhancedNote ?? "",
              summary: input.summary ?? "",
              totalDurationSec: Math.round(
                input.totalDurationSec ?? (segments.length ? Math.max(...segments.map((s) => s.endSec)) : 0),
              ),
              participants: meeting.participants,
              calendarEvent: meeting.calendarEvent,
              calendarSeries: meeting.calendarSeries,
              inputLanguage: input.inputLanguage ?? null,
              translationLanguage: null,
              meetingApp: meeting.meetingApp,
              processingError: null,
              uploadId: audio.uploadId ?? null,
              recordingId: null,
              processingInfo: summarized ? { summary: "provided" } : null,
              createdAt,
              updatedAt: Math.max(createdAt, t),
            },
            segments,
            folderIds,
          });
          // A new note has no link to revoke: only a public one gets its link.
          if (visibility === "public") await syncShare(repos, now, id, visibility);
          await lifecycle.created(p.workspaceId, id, { index: true, status, text: summarized });
        })
        .catch(async (err) => {
          // Two imports of one file at once: the index refused the second; say so, not 500.
          await importedOnce(repos, p.workspaceId, input.sourceHash);
          throw err;
        });
      return get(p, id);
    },

    /** A note for an uploaded recording, waiting for processing (status postprocessing). */
    async createFromAudio(
      p: Principal,
      input: {
        title?: string;
        calendarEventId?: string;
        folderId?: string;
        /** Who was there, added by hand to the event's attendees. */
        participants?: Partial<ParticipantValue>[];
        /** A two-channel recording of the person and the others: its segments are attributed by channel. */
        channels?: readonly ["me", "others"];
        /** Where its audio is: an upload, or a live recording. */
        audio: AudioRef;
        declaredDurationSec: number;
        /** A live recording's note starts idle (its audio is yet to come); an upload's is queued at once. */
        status?: "postprocessing" | "idle";
      },
    ): Promise<{ id: string }> {
      const t = now();
      const folderIds = input.folderId ? await requireFolders(await access.actor(p), [input.folderId], "folderId") : [];
      const id = newId("note");
      const status = input.status ?? "postprocessing";
      const meeting = await meetingFields(deps.calendarEvent, p, {
        calendarEventId: input.calendarEventId,
      });
      await repos.notes.insert({
        row: {
          id,
          workspaceId: p.workspaceId,
          createdBy: p.userId,
          title: input.title?.trim() || meeting.title || `Recording ${iso(t).slice(0, 16).replace("T", " ")} UTC`,
          // Untitled: named from what was said once it is summarized.
          titleFromContent: !input.title?.trim() && !meeting.title,
          kind: "online",
          status,
          visibility: await newNoteVisibility(p),
          userWrittenNote: "",
          enhancedNote: "",
          summary: "",
          totalDurationSec: input.declaredDurationSec,
          participants: withAdded(meeting.participants, input.participants),
          calendarEvent: meeting.calendarEvent,
          calendarSeries: meeting.calendarSeries,
          inputLanguage: null,
          translationLanguage: null,
          meetingApp: meeting.meetingApp,
          processingError: null,
          uploadId: input.audio.kind === "upload" ? input.audio.id : null,
          recordingId: input.audio.kind === "recording" ? input.audio.id : null,
          processingInfo: input.channels ? { channels: input.channels.join(",") } : null,
          createdAt: t,
          updatedAt: t,
        },
        segments: [],
        folderIds,
      });
      await lifecycle.created(p.workspaceId, id, { index: false, status });
      return { id };
    },

    async update(p: Principal, id: string, patch: NoteUpdate): Promise<NoteDto> {
      const a = await access.actor(p);
      const row = await visibleRow(a, id);
      const facts = await access.noteFacts(row);
      const folderIds = patch.folderIds ? await requireFolders(a, patch.folderIds, "folderIds") : undefined;
      if (patch.visibility !== undefined && patch.visibility !== row.visibility)
        access.require(notePolicy.widen(a, facts), "Only the note's creator or an admin can change who sees it.");
      if (folderIds) {
        const privateNow = (await repos.folders.existing(p.workspaceId, [...facts.folderIds]))
          .filter((f) => f.isPrivate)
          .map((f) => f.id);
        if (privateNow.some((f) => !folderIds.includes(f)))
          access.require(
            notePolicy.widen(a, facts),
            "Only the note's creator or an admin can take it out of a private folder.",
          );
      }
      const fields: Partial<NoteRow> = { updatedAt: now() };
      if (patch.visibility !== undefined) fields.visibility = patch.visibility;
      if (patch.userWrittenNote !== undefined) fields.userWrittenNote = patch.userWrittenNote;
      const rewritten = patch.summary !== undefined || patch.enhancedNote !== undefined;
      if (rewritten) {
        if (!SETTLED_STATUSES.has(row.status))
          throw new ConflictError(
            `Note ${id} is being recorded or processed (${row.status}): edit its summary once that is done.`,
          );
        if (patch.summary !== undefined) fields.summary = patch.summary;
        if (patch.enhancedNote !== undefined) fields.enhancedNote = patch.enhancedNote;
        fields.textEditedAt = now();
      }
      Object.assign(fields, await meetingChange(deps.calendarEvent, p, row, patch));
      // A title a person gives is theirs: summarizing again no longer names the note.
      if (patch.title !== undefined) Object.assign(fields, { title: patch.title, titleFromContent: false });
      await repos.transaction(async () => {
        // Its task lines are its action items: kept in step with a person's edit.
        const items = rewritten ? await planActionItems(repos, { ...row, ...fields }, now()) : null;
        await repos.notes.update(p.workspaceId, id, { ...fields, ...items?.text }, folderIds);
        if (items) await repos.actionItems.replaceForNote(id, items.rows);
        await history.personWrote(p, row, {
          ...(fields.title !== undefined ? { title: fields.title } : {}),
          ...(fields.userWrittenNote !== undefined ? { userWrittenNote: fields.userWrittenNote } : {}),
          ...(fields.summary !== undefined ? { summary: items?.text.summary ?? fields.summary } : {}),
          ...(fields.enhancedNote !== undefined
            ? { enhancedNote: items?.text.enhancedNote ?? fields.enhancedNote }
            : {}),
        });
        if (patch.visibility !== undefined) await syncShare(repos, now, id, patch.visibility);
        if (patch.title !== undefined || patch.userWrittenNote !== undefined || fields.participants || rewritten)
          await jobs.enqueue("index-passages", { source: "note", id });
      });
      return get(p, id);
    },

    ...noteRewrites({ repos, lifecycle, templates: deps.templates, visibleRow, get }),

    ...noteSpeakers({ repos, now, visibleRow, jobs, voicePrints: deps.voicePrints }),

    ...ownNotes({ repos, now, jobs, visibleRow, history }),

    /** Corrections of its transcript, line by line. */
    transcript,

    ...noteHistoryReads({
      repos,
      visibleRow,
      get,
      update: (p, id, parts) => self.update(p, id, parts),
      editLine: (p, noteId, lineId, edit) => transcript.edit(p, noteId, lineId, edit),
      lines: transcript,
    }),

    ...noteViews({ repos, access, visibleRow, publicUrl: deps.publicUrl }),

    ...noteShareLinks({ repos, access, visibleRow, publicUrl: deps.publicUrl }),

    /** The stored recording of a note the caller may see, or null when it has none. */
    async recording(p: Principal, id: string): Promise<{ key: string; contentType: string; extension: string } | null> {
      const row = await visibleRow(p, id);
      const audio = await noteAudio(repos, row);
      return audio ? { key: audioKey(audio), contentType: audio.contentType, extension: audio.extension } : null;
    },

    /**
     * Deletes the note with its transcript, speakers and passages in one transaction;
     * its recording goes once that has committed. The removal is queued in the same
     * transaction, so a crash or a store that refuses cannot leave the file behind.
     */
    async delete(p: Principal, id: string): Promise<void> {
      const a = await access.actor(p);
      const recording = await repos.transaction(async () => {
        const row = await repos.notes.get(noteView(a), id);
        if (!row) throw new NotFoundError(`Note ${id} not found.`);
        access.require(
          notePolicy.delete(a, await access.noteFacts(row)),
          "Only the note's creator or an admin can delete it.",
        );
        if (!(await repos.notes.delete(p.workspaceId, id))) throw new NotFoundError(`Note ${id} not found.`);
        await repos.passages.remove("note", id);
        const audio = await noteAudio(repos, row);
        // In the deleting transaction: retried until the store lets go of it.
        if (audio) await jobs.enqueue("delete-recording", { audioId: audio.id, key: audioKey(audio) });
        return audio;
      });
      if (recording) await deps.deleteRecording(audioKey(recording));
    },
  };
  self.update = service.update;
  return service;
}

export type NoteService = ReturnType<typeof createNoteService>;
