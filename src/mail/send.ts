// Sending mail through the durable job queue: a mail is queued sealed (it may carry a
// sign-in link, which must not sit in the database in clear) with the workspace it is
// from, sent by nodemailer through that workspace's SMTP server or else the server's,
// retried with backoff while the server is away, and kept as failed, without blocking
// the rest, when the server refuses its recipient for good.
import { z } from "zod";
import type { Transporter } from "nodemailer";
import type { SecretBox } from "../core/secret-box.js";
import { PermanentJobError } from "../jobs/queue.js";
import { defineJob } from "../jobs/job.js";
import type { ResolvedConfig } from "../config/schema.js";
import { oneLine, type Mail } from "./messages.js";

const payload = z.object({
  sealed: z.string(),
  workspaceId: z.string().optional(),
  /** What makes the mail one of a kind (an invite's id): sent once per key. */
  key: z.string().optional(),
});

declare module "../jobs/job.js" {
  interface JobPayloads {
    "send-mail": z.infer<typeof payload>;
  }
}

/** Where one mail goes out: a transport and the sender it speaks for. */
export interface MailRoute {
  transport: Transporter;
  from: string;
}

/** The domain of the sender's address, for Message-IDs. */
const senderDomain = (from: string) => /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? "localhost";

export const sealMail = (secrets: SecretBox, mail: Mail, key: string, workspaceId?: string) => ({
  sealed: secrets.seal(JSON.stringify(mail)),
  key,
  ...(workspaceId ? { workspaceId } : {}),
});

/** Hands a mail to the route's SMTP server; a refusal of the recipient or message for good is a PermanentJobError. */
export async function deliver(route: MailRoute, mail: Mail, messageId: string): Promise<void> {
  try {
    await route.transport.sendMail({
      from: route.from,
      to: mail.to,
      subject: oneLine(mail.subject),
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
      messageId: `<${messageId}@${senderDomain(route.from)}>`,
    });
  } catch (err) {
    const e = err as { responseCode?: number; message?: string };
    // 5xx for the recipient or the message: trying again will not help.
    if (e.responseCode && e.responseCode >= 500 && e.responseCode < 600)
      throw new PermanentJobError(`The mail server refused the mail to ${mail.to}: ${e.message}`);
    throw err;
  }
}

/** A mail, sealed, sent once per key; always defined: a workspace's admins may set up its own SMTP server at any time. */
export const sendMailJob = defineJob({
  kind: "send-mail",
  payload,
  key: (p) => (p.key ? `mail:${p.key}` : undefined),
  worker: (d: {
    secrets: SecretBox;
    config: { mail: Pick<ResolvedConfig["mail"], "retryBaseMs"> };
    /** The way out for a workspace's mail (or the server's own, without one); null when mail is no longer set up. */
    services: { mail: { route: (workspaceId?: string) => Promise<MailRoute | null> } };
  }) => ({
    concurrency: 2,
    leaseMs: 2 * 60_000,
    timeoutMs: 90_000,
    maxAttempts: 8,
    backoffMs: (attempt) => d.config.mail.retryBaseMs * 4 ** (attempt - 1),
    async handle({ sealed, workspaceId }, { job }) {
      const mail = JSON.parse(d.secrets.open(sealed)) as Mail;
      const route = await d.services.mail.route(workspaceId);
      if (!route) throw new PermanentJobError("Mail is no longer set up: nothing was sent.");
      // The same id on every attempt: a receiver that got it twice can tell.
      await deliver(route, mail, `notula-mail-${job.id}`);
    },
  }),
});
