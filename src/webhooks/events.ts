// Emitting workspace events: the event and its deliveries are written to the outbox
// (in the caller's transaction), and one delivery job per registration is queued.
import { randomBytes } from "node:crypto";
import type { Repositories } from "../db/repos/index.js";
import type { Jobs } from "../jobs/job.js";
import type { Clock } from "../core/clock.js";
import { notePolicy, type Actor, type NoteFacts } from "../core/access.js";

export type EventType = "note.created" | "note.completed" | "note.updated";

/**
 * Every event is about one note, which it carries whole. The note is presented only
 * when some registration is to be sent it: most workspaces have none, and then a
 * write pays for no presentation of the note it made.
 */
export type EmitEvent = (
  workspaceId: string,
  type: EventType,
  noteId: string,
  payload: () => Promise<{ note: { id: string } }>,
) => Promise<void>;

/**
 * The registrations an event about this note goes to: those whose maker may see the
 * note now, by the access policy. A registration outlives nobody's rights: once its
 * maker has left the workspace it is sent nothing; one made before makers were
 * recorded is sent what every member sees.
 */
async function audience(repos: Repositories, workspaceId: string, noteId: string): Promise<string[]> {
  const registrations = await repos.webhooks.live(workspaceId);
  if (!registrations.length) return [];
  const row = await repos.notes.getForProcessing(noteId);
  if (!row || row.workspaceId !== workspaceId) return [];
  const folderIds = ((await repos.notes.foldersOf([noteId])).get(noteId) ?? []).map((f) => f.id);
  const note: NoteFacts = { workspaceId, createdBy: row.createdBy, visibility: row.visibility, folderIds };
  const out: string[] = [];
  for (const r of registrations) {
    const member = r.createdByUserId ? await repos.members.getByUser(workspaceId, r.createdByUserId) : null;
    if (r.createdByUserId && !member) continue;
    const userId = r.createdByUserId ?? "";
    const actor: Actor = {
      workspaceId,
      userId,
      role: member?.role ?? "member",
      hiddenFolderIds: new Set(await repos.folders.hiddenFrom(workspaceId, userId)),
    };
    if (notePolicy.see(actor, note)) out.push(r.id);
  }
  return out;
}

export function createEventEmitter(repos: Repositories, jobs: Jobs, now: Clock): EmitEvent {
  return async (workspaceId, type, noteId, presented) => {
    const targets = await audience(repos, workspaceId, noteId);
    if (!targets.length) return;
    const payload = await presented();
    const t = now();
    const eventId = `evt_${randomBytes(16).toString("base64url")}`;
    const body = JSON.stringify({ type, eventId, workspaceId, timestamp: new Date(t).toISOString(), payload });
    const deliveries = await repos.webhookDeliveries.record(
      { id: eventId, workspaceId, type, body, createdAt: t },
      targets,
    );
    for (const deliveryId of deliveries) await jobs.enqueue("deliver-webhook", { deliveryId });
  };
}
