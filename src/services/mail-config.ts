// Which SMTP server sends a workspace's mail: the one its admins set (Settings → Email,
// PATCH /v1/mail-config), else the server's (NOTULA_SMTP_URL), else none. The stored URL
// carries the password and is sealed whole; the password is never returned, and kept
// across a change only while host and user stay the same. A test mail goes to the
// admin's own address alone, sent at once so that the answer says what the server said.
import type { Repositories } from "../db/repos/index.js";
import type { Clock } from "../core/clock.js";
import { iso } from "../core/clock.js";
import type { Principal } from "../core/principal.js";
import type { SecretBox } from "../core/secret-box.js";
import { workspacePolicy } from "../core/access.js";
import { BadRequestError, ForbiddenError, RateLimitError } from "../core/errors.js";
import { createAttemptLimiter } from "../core/attempt-limiter.js";
import type { CounterStore } from "./counters.js";
import { testMail } from "../mail/messages.js";
import { deliver, sealMail, type MailRoute } from "../mail/send.js";
import {
  parseSmtpUrl,
  pinnedSmtpTransport,
  SmtpAddressError,
  smtpTransport,
  smtpUrl,
  type SmtpServer,
} from "../mail/smtp.js";
import type { MailConfigDto, MailConfigUpdateInput, MailTestResultDto } from "../shared/schemas/mail-config.js";
import type { Outbox } from "./outbox.js";
import type { Transporter } from "nodemailer";
import type { Outbound } from "../net/outbound.js";
import type { Jobs } from "../jobs/job.js";

export interface MailOptions {
  /** The server's own SMTP server (NOTULA_SMTP_URL), set by its operator. */
  smtpUrl?: string;
  /** The server's sender (NOTULA_MAIL_FROM). */
  from: string;
}

export function createMailConfig(d: {
  repos: Repositories;
  secrets: SecretBox;
  now: Clock;
  counters: CounterStore;
  publicUrl: string;
  mail: MailOptions | null;
  /** The mail way out: a workspace's server is held to --allow-private-smtp. */
  outbound: Outbound;
  /** Mail goes out through the send-mail job, sealed. */
  jobs: Jobs;
}) {
  const mail = d.mail;
  // The server's transport is made once; a workspace's is made per send (its host is
  // resolved and checked each time).
  let serverTransport: Promise<Transporter> | null = null;
  const tests = createAttemptLimiter({
    name: "mail-test",
    max: 10,
    windowMs: 3_600_000,
    now: d.now,
    counters: d.counters,
  });

  const own = async (workspaceId: string) => {
    const row = await d.repos.mailSettings.get(workspaceId);
    return row ? { row, smtp: parseSmtpUrl(d.secrets.open(row.smtpUrlEnc)) } : null;
  };

  /** The way out for a workspace's mail, or the server's own without one; null when there is none. */
  async function route(workspaceId?: string): Promise<MailRoute | null> {
    const mine = workspaceId ? await own(workspaceId) : null;
    if (mine && mail)
      return {
        transport: await pinnedSmtpTransport(mine.smtp, d.outbound),
        from: mine.row.fromAddress ?? mail.from,
      };
    if (!mail?.smtpUrl) return null;
    return { transport: await (serverTransport ??= smtpTransport(mail.smtpUrl)), from: mail.from };
  }

  const outbox: Outbox = {
    async configured(workspaceId) {
      if (!mail) return false;
      if (mail.smtpUrl) return true;
      return workspaceId ? Boolean(await d.repos.mailSettings.get(workspaceId)) : d.repos.mailSettings.any();
    },
    async send(m, key, workspaceId) {
      if (mail) await d.jobs.enqueue("send-mail", sealMail(d.secrets, m, key, workspaceId));
    },
  };

  const allowed = (p: Principal) => {
    if (!workspacePolicy.configureMail(p))
      throw new ForbiddenError("Only admins of this workspace can set up its email.");
  };

  async function get(p: Principal): Promise<MailConfigDto> {
    allowed(p);
    const mine = await own(p.workspaceId);
    const serverFrom = mail?.from ?? "";
    return {
      source: mine ? "workspace" : mail?.smtpUrl ? "server" : "none",
      smtp: mine
        ? {
            host: mine.smtp.host,
            port: mine.smtp.port,
            security: mine.smtp.security,
            username: mine.smtp.username,
            hasPassword: Boolean(mine.smtp.password),
          }
        : null,
      from: mine?.row.fromAddress ?? null,
      effectiveFrom: mine?.row.fromAddress ?? serverFrom,
      updatedAt: mine ? iso(mine.row.updatedAt) : null,
    };
  }

  return {
    outbox,
    route,
    get,

    /** The account-wide mail (a password reset): the server's, else that of the person's oldest workspace with its own. */
    async accountRoute(userId: string): Promise<{ workspaceId?: string } | null> {
      if (mail?.smtpUrl) return {};
      const row = await d.repos.mailSettings.forUser(userId);
      return row ? { workspaceId: row.workspaceId } : null;
    },

    async update(p: Principal, input: MailConfigUpdateInput): Promise<MailConfigDto> {
      allowed(p);
      const mine = await own(p.workspaceId);
      if (input.smtp === null) {
        await d.repos.mailSettings.remove(p.workspaceId);
        return get(p);
      }
      let smtp: SmtpServer | null = mine?.smtp ?? null;
      if (input.smtp) {
        const username = input.smtp.username || null;
        const sameAccount = mine && mine.smtp.host === input.smtp.host && mine.smtp.username === username;
        const password =
          input.smtp.password !== undefined ? input.smtp.password || null : sameAccount ? mine.smtp.password : null;
        if (password && !username) throw new BadRequestError("smtp.password: needs a username to go with it.");
        smtp = {
          host: input.smtp.host.replace(/^\[|\]$/g, ""),
          port: input.smtp.port,
          security: input.smtp.security,
          username,
          password,
        };
        // Checked now as well as at each send, so that a refused address is said at once.
        try {
          await pinnedSmtpTransport(smtp, d.outbound);
        } catch (err) {
          if (err instanceof SmtpAddressError) throw new BadRequestError(`smtp.host: ${err.message}`);
          throw err;
        }
      }
      if (!smtp) {
        if (input.from !== undefined) throw new BadRequestError("from: set an SMTP server first (smtp).");
        return get(p);
      }
      await d.repos.mailSettings.save({
        workspaceId: p.workspaceId,
        smtpUrlEnc: d.secrets.seal(smtpUrl(smtp)),
        fromAddress: input.from !== undefined ? input.from : (mine?.row.fromAddress ?? null),
        updatedAt: d.now(),
      });
      return get(p);
    },

    /** Sends a test mail to the caller now, through the workspace's way out, and says how it went. */
    async test(p: Principal): Promise<MailTestResultDto> {
      allowed(p);
      const wait = await tests.blockedFor(p.workspaceId);
      if (wait > 0) throw new RateLimitError(Math.ceil(wait / 1000));
      await tests.fail(p.workspaceId);
      const [user, workspace] = await Promise.all([d.repos.users.get(p.userId), d.repos.workspaces.get(p.workspaceId)]);
      const to = user?.email ?? "";
      try {
        const r = await route(p.workspaceId);
        if (!r) return { delivered: false, to, error: "Email is not set up: set an SMTP server first." };
        await deliver(
          r,
          testMail({ to, workspace: workspace?.name ?? "notula", settingsUrl: `${d.publicUrl}/settings/email` }),
          `notula-test-${d.now()}-${p.userId}`,
        );
        return { delivered: true, to, error: null };
      } catch (err) {
        return { delivered: false, to, error: (err as Error).message.slice(0, 500) };
      }
    },
  };
}

export type MailConfigService = ReturnType<typeof createMailConfig>;
