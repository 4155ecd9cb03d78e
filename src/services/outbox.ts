// What the services know of mail: whether it can be sent from a workspace, and a way to
// queue one. The queue (runtime/jobs.ts) seals and sends it through the workspace's own
// SMTP server or the server's (services/mail-config.ts); without either nothing is
// queued, and the callers say so to people instead (an invite shows its link; a
// forgotten password is for an admin).
import type { Mail } from "../mail/messages.js";

export interface Outbox {
  /** Whether mail from `workspaceId` can be sent; without one, whether any mail can be sent from this server. */
  configured(workspaceId?: string): Promise<boolean>;
  /** Queues `mail` once per `key`, to go out the way `workspaceId`'s mail does: queuing the same key again while it waits adds nothing. */
  send(mail: Mail, key: string, workspaceId?: string): Promise<unknown>;
}
