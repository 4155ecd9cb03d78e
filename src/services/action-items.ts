// Action items as things of their own. A note's task lines and its rows are two views
// of the same items: whenever the note's text is written (processed, enhanced, made
// with a summary), the rows are planned from its lines, keeping what people did to the
// items it had (ticked, given to someone, due another day) and writing that back into
// the lines; when an item is changed here, its line is rewritten to match.
import type { Repositories } from "../db/repos/index.js";
import type { ActionItemRow } from "../db/repos/action-items.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import { actionItemPolicy, noteView } from "../core/access.js";
import { NotFoundError } from "../core/errors.js";
import { taskLinesOf, withTaskStates, type TaskLine, type TaskState } from "../core/task-lines.js";
import { newId } from "../core/ids.js";
import { notePath } from "../shared/note-links.js";
import { paginate } from "./pagination.js";
import type { Access } from "./access.js";
import type { ActionItemDto, ActionItemListQueryInput, ActionItemUpdate } from "../shared/schemas/action-items.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentActionItem(row: ActionItemRow, noteTitle: string): ActionItemDto {
  return {
    id: row.id,
    noteId: row.noteId,
    noteTitle,
    text: row.text,
    owner: row.ownerName ? { name: row.ownerName, userId: row.ownerUserId } : null,
    due: row.due,
    done: row.doneAt !== null,
    doneAt: iso(row.doneAt),
    doneBy: row.doneBy,
    at: row.citedSec,
    url: notePath(row.noteId, row.citedSec),
  };
}

type NoteText = Pick<NoteRow, "id" | "workspaceId" | "enhancedNote" | "summary" | "participants">;

/**
 * The member a task's owner is: a participant of that name whose address is a
 * member's, else the one member of exactly that name; null otherwise.
 */
async function memberNamed(repos: Repositories, note: NoteText, name: string): Promise<string | null> {
  const wanted = name.trim().toLowerCase();
  const first = (n: string) => n.trim().toLowerCase().split(/\s+/)[0];
  const participant = (note.participants ?? []).find(
    (p) => p.email && (p.name.trim().toLowerCase() === wanted || first(p.name) === wanted),
  );
  if (participant) {
    const member = await repos.members.getByEmail(note.workspaceId, participant.email);
    if (member) return member.userId;
  }
  const named = (await repos.members.list(note.workspaceId, { limit: 20, offset: 0, search: name.trim() })).filter(
    (m) => m.name.trim().toLowerCase() === wanted,
  );
  return named.length === 1 ? named[0].userId : null;
}

/** Where a note's items are written: its enhanced note's task lines, else its summary's. */
function sourceOf(note: NoteText): { field: "enhancedNote" | "summary"; lines: TaskLine[] } {
  const enhanced = taskLinesOf(note.enhancedNote);
  if (enhanced.length) return { field: "enhancedNote", lines: enhanced };
  return { field: "summary", lines: taskLinesOf(note.summary) };
}

/**
 * The rows a note's text makes, and its text with what people did to its items written
 * back in. An item the note had (the same words) keeps its id, its tick, its owner and
 * its day; a new one takes the line's.
 */
export async function planActionItems(
  repos: Repositories,
  note: NoteText,
  now: number,
): Promise<{ rows: ActionItemRow[]; text: Partial<Pick<NoteRow, "enhancedNote" | "summary">> }> {
  const { field, lines } = sourceOf(note);
  const had = await repos.actionItems.forNote(note.id);
  const unused = new Map<string, ActionItemRow[]>();
  for (const row of had) unused.set(row.key, [...(unused.get(row.key) ?? []), row]);
  const rows: ActionItemRow[] = [];
  const states = new Map<string, TaskState>();
  const seen = new Set<string>();
  for (const line of lines) {
    // A task listed twice is one item.
    if (seen.has(line.key)) continue;
    seen.add(line.key);
    const before = unused.get(line.key)?.shift();
    const ownerName = before ? before.ownerName : line.owner;
    const row: ActionItemRow = {
      id: before?.id ?? newId("ai"),
      workspaceId: note.workspaceId,
      noteId: note.id,
      position: rows.length,
      key: line.key,
      text: line.text,
      ownerName,
      ownerUserId:
        before && before.ownerName === ownerName
          ? before.ownerUserId
          : ownerName
            ? await memberNamed(repos, note, ownerName)
            : null,
      due: before ? before.due : line.due,
      citedSec: line.citedSec,
      doneAt: before?.doneAt ?? (line.done ? now : null),
      doneBy: before?.doneAt ? before.doneBy : null,
      createdAt: before?.createdAt ?? now,
      updatedAt: before && before.text === line.text && before.citedSec === line.citedSec ? before.updatedAt : now,
    };
    rows.push(row);
    states.set(row.key, { done: row.doneAt !== null, owner: row.ownerName, due: row.due });
  }
  const written = withTaskStates(note[field], states);
  return { rows, text: written === note[field] ? {} : { [field]: written } };
}

export function createActionItemService(d: { repos: Repositories; access: Access; now: Clock }) {
  const { repos, access } = d;
  const gone = (id: string) =>
    new NotFoundError(`Action item ${id} not found: it may have been removed when its note was written again.`);

  return {
    /** The caller's day, as due dates are compared with it (UTC). */
    today(): string {
      return new Date(d.now()).toISOString().slice(0, 10);
    },

    async list(p: Principal, q: ActionItemListQueryInput) {
      const view = await access.view(p);
      const rows = await repos.actionItems.list(view, {
        ownerUserId: q.assignee === "me" ? p.userId : q.assignee,
        status: q.status === "all" ? undefined : q.status,
        noteId: q.noteId,
        dueBefore: q.dueBefore,
        limit: q.limit,
        offset: q.offset,
      });
      const { page, pagination } = paginate(rows, q.limit, q.offset);
      return { items: page.map((r) => presentActionItem(r.item, r.noteTitle)), pagination };
    },

    /** A note's items, as its single read shows them (the caller has read the note). */
    async forNote(note: Pick<NoteRow, "id" | "title">): Promise<ActionItemDto[]> {
      return (await repos.actionItems.forNote(note.id)).map((r) => presentActionItem(r, note.title));
    },

    /** Ticks an item done or open, gives it to someone, or sets its day; its line in the note follows. */
    async update(p: Principal, id: string, patch: ActionItemUpdate): Promise<ActionItemDto> {
      const item = await repos.actionItems.get(p.workspaceId, id);
      if (!item) throw gone(id);
      const a = await access.actor(p);
      const note = await repos.notes.get(noteView(a), item.noteId);
      if (!note) throw gone(id);
      access.require(
        actionItemPolicy.change(a, await access.noteFacts(note)),
        "Only someone who may edit the note can change its action items.",
      );
      const at = d.now();
      const fields: Parameters<typeof repos.actionItems.update>[1] = { updatedAt: at };
      if (patch.done !== undefined) {
        fields.doneAt = patch.done ? (item.doneAt ?? at) : null;
        fields.doneBy = patch.done ? (item.doneAt ? item.doneBy : p.userId) : null;
      }
      if (patch.owner !== undefined) {
        fields.ownerName = patch.owner;
        fields.ownerUserId = patch.owner ? await memberNamed(repos, note, patch.owner) : null;
      }
      if (patch.due !== undefined) fields.due = patch.due;
      const next = { ...item, ...fields };
      const state = new Map([[item.key, { done: next.doneAt !== null, owner: next.ownerName, due: next.due }]]);
      const { field } = sourceOf(note);
      await repos.transaction(async () => {
        await repos.actionItems.update(id, fields);
        await repos.notes.update(p.workspaceId, note.id, {
          [field]: withTaskStates(note[field], state),
          updatedAt: at,
        });
      });
      return presentActionItem(next, note.title);
    },
  };
}

export type ActionItemService = ReturnType<typeof createActionItemService>;
