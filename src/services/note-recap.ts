// "Email the recap": the person who made a note sends its summary and action items to
// the meeting's participants, after seeing what each of them will get. A recipient
// gets a link only where they can open it: the share link while the note is public,
// else the note itself for a member the access policy lets see it; anyone else gets
// the text alone. Sends are limited per note (no double send from a double click) and
// per person (the server's mail is not a way to reach arbitrary addresses in bulk).
import { taskLinesOf } from "../core/task-lines.js";
import type { Repositories } from "../db/repos/index.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import { notePolicy, type Actor, type NoteFacts } from "../core/access.js";
import { BadRequestError, RateLimitError, ConflictError } from "../core/errors.js";
import { slidingWindow } from "../core/sliding-window.js";
import type { CounterStore } from "./counters.js";
import type { Access } from "./access.js";
import type { Outbox } from "./outbox.js";
import type { NoteDto } from "../shared/schemas/notes.js";
import type { RecapRecipient } from "../shared/schemas/recap.js";
import { recapMail } from "../mail/messages.js";
import { noteUrl, rewriteCitations } from "../shared/note-links.js";

/** Most recipients of one recap: a meeting, not a mailing list. */
export const MAX_RECAP_RECIPIENTS = 50;
const SENDS_PER_HOUR = 20;
const HOUR = 3_600_000;

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
/** The task lines ("- [ ] …") of a note's text, as written. */
const tasksOf = (markdown: string) => taskLinesOf(markdown).map((t) => t.body);

export function createNoteRecap(d: {
  repos: Repositories;
  access: Access;
  counters: CounterStore;
  now: Clock;
  outbox: Outbox;
  publicUrl: string;
  /** The note as the caller sees it (404 otherwise), with its facts. */
  noteFor: (p: Principal, id: string) => Promise<{ note: NoteDto; facts: NoteFacts; actor: Actor }>;
}) {
  const limits = slidingWindow(d.counters, d.now);

  /** The note, checked: the caller made it, and it has something to send. */
  async function load(p: Principal, id: string) {
    const { note, facts, actor } = await d.noteFor(p, id);
    d.access.require(notePolicy.emailRecap(actor, facts), "Only the person who made the note can email its recap.");
    if (!note.summary.trim())
      throw new BadRequestError("The note has no summary yet: a recap can be sent once it has been processed.");
    return { note, facts };
  }

  /** Who would get the recap, and what link each one gets. */
  async function recipientsOf(p: Principal, note: NoteDto, facts: NoteFacts): Promise<RecapRecipient[]> {
    const self = (await d.repos.users.get(p.userId))?.email.toLowerCase();
    const invited = new Set((note.calendarEvent?.attendees ?? []).map((a) => a.email.trim().toLowerCase()));
    const seen = new Set<string>();
    const out: RecapRecipient[] = [];
    for (const person of note.participants) {
      const email = person.email.trim().toLowerCase();
      if (!EMAIL.test(email) || email === self || seen.has(email)) continue;
      seen.add(email);
      let link: RecapRecipient["link"] = null;
      if (note.visibility === "public" && note.shareUrl) link = "share";
      else {
        const member = await d.repos.members.getByEmail(p.workspaceId, email);
        if (member) {
          const them = {
            workspaceId: p.workspaceId,
            userId: member.userId,
            role: member.role,
            hiddenFolderIds: new Set(await d.repos.folders.hiddenFrom(p.workspaceId, member.userId)),
          };
          if (notePolicy.see(them, facts)) link = "note";
        }
      }
      out.push({ email, name: person.name, link, from: invited.has(email) ? "meeting" : "note" });
    }
    return out;
  }

  async function mailFor(p: Principal, note: NoteDto, to: RecapRecipient) {
    const sender = (await d.repos.users.get(p.userId))?.name || "Someone";
    // A task's moment links to the note for a reader who may open it, else it is the time alone.
    const cited = (md: string) =>
      rewriteCitations(md, (id, at) => (to.link === "note" && id === note.id ? noteUrl(d.publicUrl, id, at) : null));
    const summaryTasks = new Set(tasksOf(cited(note.summary)));
    const when = note.calendarEvent?.startsAt || note.createdAt;
    return recapMail({
      to: to.email,
      sender,
      title: note.title,
      day: new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeZone: "UTC" }).format(new Date(when)),
      summary: cited(note.summary),
      // Tasks the enhanced note lists that the summary does not already carry.
      actionItems: tasksOf(cited(note.enhancedNote)).filter((t) => !summaryTasks.has(t)),
      link:
        to.link === "share"
          ? { url: note.shareUrl!, label: "Open the notes" }
          : to.link === "note"
            ? { url: `${d.publicUrl}/notes/${note.id}`, label: "Open the note in notula" }
            : null,
    });
  }

  return {
    /** What sending would do: the recipients, each one's link, and the mail as it reads. */
    async preview(p: Principal, id: string) {
      const { note, facts } = await load(p, id);
      const recipients = await recipientsOf(p, note, facts);
      const sample = await mailFor(p, note, recipients[0] ?? { email: "", name: "", link: null, from: "note" });
      return {
        configured: await d.outbox.configured(p.workspaceId),
        subject: sample.subject,
        text: sample.text,
        meeting: note.calendarEvent?.title
          ? { title: note.calendarEvent.title, startsAt: note.calendarEvent.startsAt || null }
          : null,
        recipients,
      };
    },

    /** Queues the recap to `only` (default: every participant but the sender). */
    async send(p: Principal, id: string, only?: string[]) {
      const { note, facts } = await load(p, id);
      if (!(await d.outbox.configured(p.workspaceId)))
        throw new ConflictError("Email is not set up for this workspace: an admin sets it up in Settings → Email.");
      let recipients = await recipientsOf(p, note, facts);
      if (only) {
        const wanted = new Set(only.map((e) => e.trim().toLowerCase()));
        const unknown = [...wanted].filter((e) => !recipients.some((r) => r.email === e));
        if (unknown.length)
          throw new BadRequestError(`recipients: ${unknown.slice(0, 5).join(", ")} is not a participant of this note.`);
        recipients = recipients.filter((r) => wanted.has(r.email));
      }
      if (!recipients.length)
        throw new BadRequestError("The note has no participants with an email address to send the recap to.");
      if (recipients.length > MAX_RECAP_RECIPIENTS)
        throw new BadRequestError(
          `recipients: a recap goes to at most ${MAX_RECAP_RECIPIENTS} people; choose them with "recipients".`,
        );
      const perNote = await limits.take(`recap:note:${id}`, 1, 60_000);
      if (!perNote.allowed) throw new RateLimitError(Math.ceil(perNote.retryAfterMs / 1000));
      const perPerson = await limits.take(`recap:user:${p.userId}`, SENDS_PER_HOUR, HOUR);
      if (!perPerson.allowed) {
        await limits.clear(`recap:note:${id}`);
        throw new RateLimitError(Math.ceil(perPerson.retryAfterMs / 1000));
      }
      const at = d.now();
      for (const r of recipients)
        await d.outbox.send(await mailFor(p, note, r), `recap:${id}:${r.email}:${at}`, p.workspaceId);
      return { recipients };
    },
  };
}

export type NoteRecap = ReturnType<typeof createNoteRecap>;
