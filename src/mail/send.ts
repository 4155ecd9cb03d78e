// Sending mail through the durable job queue: a mail is queued sealed (it may carry a
// sign-in link, which must not sit in the database in clear), sent by nodemailer to the
// configured SMTP server, retried with backoff while the server is away, and kept as
// failed, without blocking the rest, when the server refuses its recipient for good.
import { z } from "zod";
import type { Transporter } from "nodemailer";
import type { SecretBox } from "../core/secret-box.js";
import { PermanentJobError, type WorkerDefinition } from "../jobs/queue.js";
import { oneLine, type Mail } from "./messages.js";

export const SEND_MAIL = "send-mail";

const payload = z.object({ sealed: z.string() });

export interface MailSettings {
  smtpUrl?: string;
  from: string;
  retryBaseMs: number;
}

/** nodemailer's SMTP transport for the configured URL; loaded only when mail is set up. */
export async function smtpTransport(url: string): Promise<Transporter> {
  const nodemailer = await import("nodemailer");
  return nodemailer.createTransport(url, { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 });
}

/** The domain of the sender's address, for Message-IDs. */
const senderDomain = (from: string) => /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? "localhost";

export const sealMail = (secrets: SecretBox, mail: Mail) => ({ sealed: secrets.seal(JSON.stringify(mail)) });

export function sendMailWorker(d: {
  secrets: SecretBox;
  settings: MailSettings;
  transport: () => Promise<Transporter>;
}): WorkerDefinition<z.infer<typeof payload>> {
  return {
    kind: SEND_MAIL,
    payload,
    concurrency: 2,
    leaseMs: 2 * 60_000,
    timeoutMs: 90_000,
    maxAttempts: 8,
    backoffMs: (attempt) => d.settings.retryBaseMs * 4 ** (attempt - 1),
    async handle({ sealed }, { job }) {
      const mail = JSON.parse(d.secrets.open(sealed)) as Mail;
      const transport = await d.transport();
      try {
        await transport.sendMail({
          from: d.settings.from,
          to: mail.to,
          subject: oneLine(mail.subject),
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
          // The same id on every attempt: a receiver that got it twice can tell.
          messageId: `<notula-mail-${job.id}@${senderDomain(d.settings.from)}>`,
        });
      } catch (err) {
        const e = err as { responseCode?: number; message?: string };
        // 5xx for the recipient or the message: trying again will not help.
        if (e.responseCode && e.responseCode >= 500 && e.responseCode < 600)
          throw new PermanentJobError(`The mail server refused the mail to ${mail.to}: ${e.message}`);
        throw err;
      }
    },
  };
}
