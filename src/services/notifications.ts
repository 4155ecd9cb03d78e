// Mail about a person's own notes, when they ask for it: "Email me when my note is
// ready" (off by default, per workspace). The mail is queued in the transaction that
// completes the note, so it is sent once and never lost; its unsubscribe link is
// signed (HMAC, checked in constant time) and works once clicked, without signing in.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { Principal } from "../core/principal.js";
import type { SecretBox } from "../core/secret-box.js";
import { BadRequestError } from "../core/errors.js";
import { noteReadyMail } from "../mail/messages.js";
import type { Outbox } from "./outbox.js";

const PURPOSE = "unsubscribe:note-ready";

export function createNotifications(d: { repos: Repositories; outbox: Outbox; secrets: SecretBox; publicUrl: string }) {
  const tokenFor = (workspaceId: string, userId: string) => {
    const data = Buffer.from(`${workspaceId}\n${userId}`).toString("base64url");
    return `${data}.${d.secrets.sign(`${PURPOSE}\n${data}`)}`;
  };

  return {
    /** Whether the workspace's mail can be sent (else the setting says email is not set up). */
    mailConfigured(p: Principal): Promise<boolean> {
      return d.outbox.configured(p.workspaceId);
    },

    async get(p: Principal) {
      return { noteReady: await d.repos.members.notifyNoteReady(p.workspaceId, p.userId) };
    },

    async set(p: Principal, change: { noteReady?: boolean }) {
      if (change.noteReady !== undefined)
        await d.repos.members.setNotifyNoteReady(p.workspaceId, p.userId, change.noteReady);
      return this.get(p);
    },

    /** A note has just completed (inside the transaction that completed it): mail its maker if they asked. */
    async noteCompleted(note: NoteRow): Promise<void> {
      if (!(await d.outbox.configured(note.workspaceId))) return;
      if (!(await d.repos.members.notifyNoteReady(note.workspaceId, note.createdBy))) return;
      const user = await d.repos.users.get(note.createdBy);
      if (!user) return;
      await d.outbox.send(
        noteReadyMail({
          to: user.email,
          title: note.title,
          url: `${d.publicUrl}/notes/${encodeURIComponent(note.id)}`,
          summary: note.summary,
          unsubscribeUrl: `${d.publicUrl}/unsubscribe/${tokenFor(note.workspaceId, note.createdBy)}`,
        }),
        `ready:${note.id}`,
        note.workspaceId,
      );
    },

    /** Turns the mails off for the person the link was made for; a link not made here is refused. */
    async unsubscribe(token: string): Promise<void> {
      const [data, signature] = token.split(".");
      if (!data || !signature || !d.secrets.verify(`${PURPOSE}\n${data}`, signature))
        throw new BadRequestError("This unsubscribe link is not valid.");
      const [workspaceId, userId] = Buffer.from(data, "base64url").toString().split("\n");
      await d.repos.members.setNotifyNoteReady(workspaceId, userId, false);
    },
  };
}

export type Notifications = ReturnType<typeof createNotifications>;
