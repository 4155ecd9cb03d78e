// Notes and their parts on PostgreSQL: the same interface as the SQLite repository
// (src/db/sqlite/notes.ts), with plain queries the planner serves from the same indexes
// (lower(title) for the title order), the title search on tsvector, list items built
// from the one Note definition in JavaScript, and the search row kept in step.
import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { groupRows } from "../repos/group-rows.js";
import { PG_LIST_JSON_SQL, PG_NOTE_TAGS_SQL } from "../repos/note-shape.js";
import type { Transaction } from "../repos/portable.js";
import type { NoteView } from "../../core/access.js";
import {
  boundNoteView,
  changesSearchText,
  noteViewSql,
  inChunks,
  normalizeEmail,
  participantEmails,
  segmentFields,
  searchWords,
  storedSegment,
  withProgressReset,
} from "../stores/note-rules.js";
import type {
  NoteStore,
  NoteTagRow,
  NoteWithParts,
  SegmentRow,
  SpeakerNameRow,
  StoredSegment,
} from "../stores/note-store.js";
import type { PgQueryable } from "./open.js";
import { runNamed, type StatementNames } from "./connection.js";
import { pgSchema } from "./schema.js";
import { reindexNote } from "./search.js";

/**
 * A page size written into the statement's text, not bound. With a bound LIMIT the
 * planner must guess a tenth of the rows, so a prepared statement's generic plan looks
 * costlier than a custom one and PostgreSQL plans it afresh on every run; with the
 * number in the text the generic plan is kept after five runs (planning the list cost
 * more than running it). Page sizes are few and bounded by the API's maximum; drizzle
 * writes an SQL value as it is (and leaves out OFFSET 0), hence the cast.
 */
const literalLimit = (n: number) => sql.raw(String(Math.trunc(n))) as unknown as number;

/** A list of ids as one bound array, for `IN`: the text stays the same for any number of them. */
const idArray = (ids: readonly string[]): SQL => sql`(SELECT unnest(${sql.param(ids)}::text[]))`;

const { folders, noteFolders, noteParticipantEmails, notes, noteSpeakers, transcriptSegments } = pgSchema;

/** Every word of the search box must start a word of the title. */
const titleTsquery = (text: string) => {
  const words = searchWords(text);
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : null;
};

/**
 * `db` plans every statement for its values; `generic` is the pool of named statements
 * whose plan is the same for any values (see pgConnection).
 */
export function pgNoteRepo(
  { db, generic }: { db: PgQueryable; generic: PgQueryable },
  transaction: Transaction,
  names: StatementNames,
): NoteStore {
  /**
   * The access policy's note filter (note-rules.ts), its values bound; the hidden
   * folders as one array parameter, so the statement's text does not depend on how many.
   */
  const visible = (v: NoteView): SQL => boundNoteView(notes, v, idArray);

  async function insertSegments(noteId: string, segments: SegmentRow[]) {
    for (const chunk of inChunks(segments))
      await db
        .insert(transcriptSegments)
        .values(chunk.rows.map((s, j) => ({ ...storedSegment(s), noteId, position: chunk.start + j })));
  }

  // Inside a select of one table drizzle writes its columns unqualified ("id"), which a
  // subquery would take for its own tables' columns: the correlated subqueries name it in full.
  const noteId = sql.raw(`"notes"."id"`);
  /** A note's folders as a JSON array, by name: read with the note, in the same statement (as the list does). */
  const tagsOf = sql<NoteTagRow[]>`${sql.raw(PG_NOTE_TAGS_SQL)}`;

  // A note's single read: the row, its transcript, folders and speaker names in one
  // round trip, not four; prepared once per connection (by the viewer having hidden
  // folders or not, which changes the statement, or for the processing pipeline, which
  // reads for no viewer), so that it is not built per request.
  type WithPartsFor = "viewer" | "hidden" | "processing";
  const WITH_PARTS_FOR: WithPartsFor[] = ["viewer", "hidden", "processing"];
  const prepareWithParts = (reader: WithPartsFor) =>
    generic
      .select({
        ...getTableColumns(notes),
        tags: tagsOf,
        segments: sql<StoredSegment[]>`(SELECT coalesce(json_agg(json_build_object('id', t.id, 'version', t.version,
            'speaker', t.speaker, 'text', t.text, 'startSec', t.start_sec, 'endSec', t.end_sec) ORDER BY t.position), '[]')
          FROM ${transcriptSegments} t WHERE t.note_id = ${noteId})`,
        speakerNames: sql<
          SpeakerNameRow[]
        >`(SELECT coalesce(json_agg(json_build_object('noteId', s.note_id, 'label', s.label,
            'name', s.name, 'email', s.email, 'suggested', s.suggested, 'updatedAt', s.updated_at) ORDER BY s.label), '[]')
          FROM ${noteSpeakers} s WHERE s.note_id = ${noteId})`,
      })
      .from(notes)
      .where(
        and(
          reader === "processing"
            ? undefined
            : noteViewSql(notes, {
                workspaceId: sql.placeholder("ws"),
                viewerUserId: sql.placeholder("viewer"),
                hiddenIn: reader === "hidden" ? sql`(SELECT unnest(${sql.placeholder("hidden")}::text[]))` : null,
              }),
          eq(notes.id, sql.placeholder("id")),
        ),
      )
      .limit(1)
      .prepare(names.of(`notula_note_with_parts_${reader}`));
  let withParts = WITH_PARTS_FOR.map(prepareWithParts);
  /** Runs one shape of the single read (prepared again unnamed where a pooler lost the names). */
  async function readWithParts(reader: WithPartsFor, values: Record<string, unknown>): Promise<NoteWithParts | null> {
    const shape = WITH_PARTS_FOR.indexOf(reader);
    let found;
    try {
      [found] = await withParts[shape].execute(values);
    } catch (err) {
      if (!names.lost(err)) throw err;
      withParts = WITH_PARTS_FOR.map(prepareWithParts);
      [found] = await withParts[shape].execute(values);
    }
    if (!found) return null;
    const { tags, segments, speakerNames, ...row } = found;
    return { row, tags, segments, speakerNames };
  }

  async function foldersOf(noteIds: string[]): Promise<Map<string, NoteTagRow[]>> {
    if (noteIds.length === 0) return new Map();
    const rows = await db
      .select({ noteId: noteFolders.noteId, id: folders.id, name: folders.name, color: folders.color })
      .from(noteFolders)
      .innerJoin(folders, eq(folders.id, noteFolders.folderId))
      .where(inArray(noteFolders.noteId, noteIds))
      .orderBy(asc(folders.name));
    return groupRows(rows, "noteId");
  }

  return {
    insert(note) {
      return transaction(async () => {
        await db.insert(notes).values(note.row);
        const emails = participantEmails(note.row.participants);
        if (emails.length)
          await db
            .insert(noteParticipantEmails)
            .values(emails.map((emailNorm) => ({ noteId: note.row.id, emailNorm })));
        await insertSegments(note.row.id, note.segments);
        if (note.folderIds.length)
          await db
            .insert(noteFolders)
            .values(
              note.folderIds.map((folderId) => ({ noteId: note.row.id, folderId, noteCreatedAt: note.row.createdAt })),
            );
        await reindexNote(db, note.row.id);
      });
    },

    async get(view, id) {
      const [row] = await db
        .select()
        .from(notes)
        .where(and(visible(view), eq(notes.id, id)))
        .limit(1);
      return row ?? null;
    },

    async bySourceHash(workspaceId, sourceHash) {
      const [row] = await db
        .select({ id: notes.id, title: notes.title })
        .from(notes)
        .where(and(eq(notes.workspaceId, workspaceId), eq(notes.sourceHash, sourceHash)))
        .limit(1);
      return row ?? null;
    },

    getWithParts(view, id) {
      const hidden = view.hiddenFolderIds.length > 0;
      return readWithParts(hidden ? "hidden" : "viewer", {
        ws: view.workspaceId,
        viewer: view.viewerUserId,
        id,
        ...(hidden ? { hidden: view.hiddenFolderIds } : {}),
      });
    },

    getWithPartsForProcessing: (id) => readWithParts("processing", { id }),

    /** One page plus one row, each note as its list item's JSON text. */
    async listJson(view, f, projection = "item") {
      // One folder, newest or oldest first: that folder's timeline index (folder, the
      // note's createdAt, note id) gives the page in order, where walking the
      // workspace's notes by date would test every one of them for the folder.
      const timeline = f.folderIds?.length === 1 && f.sortBy === "createdAt";
      const where: SQL[] = [visible(view)];
      if (f.status !== undefined) where.push(eq(notes.status, f.status));
      if (f.kind !== undefined) where.push(eq(notes.kind, f.kind));
      if (f.createdBy !== undefined) where.push(eq(notes.createdBy, f.createdBy));
      // On the timeline the date range applies to note_folders' copy of createdAt.
      const createdAt = timeline ? noteFolders.noteCreatedAt : notes.createdAt;
      if (f.fromDate !== undefined) where.push(gte(createdAt, f.fromDate));
      if (f.toDate !== undefined) where.push(lt(createdAt, f.toDate));
      if (f.updatedAfter !== undefined) where.push(gt(notes.updatedAt, f.updatedAfter));
      if (f.search !== undefined) {
        const q = titleTsquery(f.search);
        if (!q) return [];
        where.push(sql`to_tsvector('simple', ${notes.title}) @@ to_tsquery('simple', ${q})`);
      }
      if (f.folderIds?.length && !timeline)
        where.push(
          sql`EXISTS (SELECT 1 FROM ${noteFolders} WHERE ${noteFolders.noteId} = ${notes.id} AND ${noteFolders.folderId} IN ${idArray(f.folderIds)})`,
        );
      if (f.participantEmail !== undefined)
        where.push(
          inArray(
            notes.id,
            db
              .select({ id: noteParticipantEmails.noteId })
              .from(noteParticipantEmails)
              .where(eq(noteParticipantEmails.emailNorm, normalizeEmail(f.participantEmail))),
          ),
        );
      const dir = f.sortOrder === "asc" ? asc : desc;
      const key =
        f.sortBy === "title"
          ? sql`lower(${notes.title})`
          : f.sortBy === "updatedAt"
            ? notes.updatedAt
            : notes.createdAt;
      // The page as its items' JSON text, folders included, in one statement. A title
      // search, or a participant, is planned for its value (a rare word or address is
      // found through its index, a common one by walking the notes in order); every other
      // shape is one generic plan, made once per connection (planning it cost as much as
      // running it).
      const planEach = f.search !== undefined || f.participantEmail !== undefined;
      const on = planEach ? db : generic;
      const columns = { json: sql<string>`${sql.raw(PG_LIST_JSON_SQL[projection])}` };
      const query = timeline
        ? on
            .select(columns)
            .from(noteFolders)
            .innerJoin(notes, eq(notes.id, noteFolders.noteId))
            .where(and(eq(noteFolders.folderId, f.folderIds![0]), ...where))
            .orderBy(dir(noteFolders.noteCreatedAt), dir(noteFolders.noteId))
            .limit(literalLimit(f.limit + 1))
            .offset(f.offset)
        : on
            .select(columns)
            .from(notes)
            .where(and(...where))
            .orderBy(dir(key), dir(notes.id))
            .limit(literalLimit(f.limit + 1))
            .offset(f.offset);
      const rows = planEach ? await query : await runNamed(names, query);
      return rows.map((r) => r.json);
    },

    foldersOf,

    async segmentsOf(noteId: string): Promise<StoredSegment[]> {
      return db
        .select(segmentFields(transcriptSegments))
        .from(transcriptSegments)
        .where(eq(transcriptSegments.noteId, noteId))
        .orderBy(asc(transcriptSegments.position));
    },

    // Two corrections of one note (on any replica) take turns: each rewrites the whole
    // transcript, and rows locked line by line would deadlock them. The lock ends with
    // the caller's transaction.
    async claimSegment(noteId, segmentId, version) {
      await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`transcript:${noteId}`}))`);
      const [row] = await db
        .select({ version: transcriptSegments.version })
        .from(transcriptSegments)
        .where(and(eq(transcriptSegments.noteId, noteId), eq(transcriptSegments.id, segmentId)))
        .limit(1);
      return row?.version === version;
    },

    async holdPart(noteId, part) {
      await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${part}:${noteId}`}))`);
    },

    update(workspaceId, id, patch, folderIds) {
      return transaction(async () => {
        const [changed] = await db
          .update(notes)
          .set(patch)
          .where(and(eq(notes.workspaceId, workspaceId), eq(notes.id, id)))
          .returning({ createdAt: notes.createdAt });
        if (!changed) return false;
        // The participant filter reads the addresses' index: it follows the list.
        if (patch.participants) {
          await db.delete(noteParticipantEmails).where(eq(noteParticipantEmails.noteId, id));
          const emails = participantEmails(patch.participants);
          if (emails.length)
            await db.insert(noteParticipantEmails).values(emails.map((emailNorm) => ({ noteId: id, emailNorm })));
        }
        if (folderIds) {
          await db.delete(noteFolders).where(eq(noteFolders.noteId, id));
          if (folderIds.length)
            await db
              .insert(noteFolders)
              .values(folderIds.map((folderId) => ({ noteId: id, folderId, noteCreatedAt: changed.createdAt })));
        }
        if (changesSearchText(patch)) await reindexNote(db, id);
        return true;
      });
    },

    /** For the processing pipeline, which acts for no particular viewer. */
    async idsAfter(afterSeq: number, limit: number): Promise<{ id: string; seq: number }[]> {
      const rows = await db
        .select({ id: notes.id, seq: notes.seq })
        .from(notes)
        .where(gt(notes.seq, afterSeq))
        .orderBy(asc(notes.seq))
        .limit(limit);
      return rows.map((r) => ({ id: r.id, seq: Number(r.seq) }));
    },

    async getForProcessing(id) {
      const [row] = await db.select().from(notes).where(eq(notes.id, id)).limit(1);
      return row ?? null;
    },

    setProcessingState(id, fields) {
      return transaction(async () => {
        await db.update(notes).set(withProgressReset(fields)).where(eq(notes.id, id));
        if (changesSearchText(fields)) await reindexNote(db, id);
      });
    },

    /** How far the current stage has come (not a change of the note: updatedAt stays). */
    async setProgress(id: string, percent: number): Promise<void> {
      await db.update(notes).set({ processingProgress: percent }).where(eq(notes.id, id));
    },

    /** Replaces the whole transcript in one transaction, so a repeated step never duplicates segments. */
    replaceTranscript(id, segments, fields) {
      return transaction(async () => {
        await db.delete(transcriptSegments).where(eq(transcriptSegments.noteId, id));
        await insertSegments(id, segments);
        await db.update(notes).set(withProgressReset(fields)).where(eq(notes.id, id));
        await reindexNote(db, id);
      });
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(notes)
        .where(and(eq(notes.workspaceId, workspaceId), eq(notes.id, id)))
        .returning({ id: notes.id });
      return gone.length > 0;
    },
  };
}
