// What the services know of mail: whether it is set up, and a way to queue one. The
// queue (runtime/jobs.ts) seals and sends it; without SMTP nothing is queued, and the
// callers say so to people instead (an invite shows its link; a forgotten password is
// for an admin).
import type { Mail } from "../mail/messages.js";

export interface Outbox {
  configured: boolean;
  /** Queues `mail` once per `key`: queuing the same key again while it waits adds nothing. */
  send(mail: Mail, key: string): Promise<unknown>;
}

export const noOutbox: Outbox = { configured: false, send: async () => {} };
