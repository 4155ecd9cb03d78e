// "Forgot password?": a one-time link by email. The answer is the same whether or not
// the address has an account, the work that differs happens after the answer, and both
// the address asked for and the place asking from are rate-limited.
import type { Repositories } from "../db/repos/index.js";
import type { Clock } from "../core/clock.js";
import type { CounterStore } from "./counters.js";
import { createAttemptLimiter } from "../core/attempt-limiter.js";
import { RateLimitError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { passwordResetMail } from "../mail/messages.js";
import type { Outbox } from "./outbox.js";

const HOUR = 3_600_000;

export function createPasswordReset(d: {
  repos: Repositories;
  now: Clock;
  counters: CounterStore;
  outbox: Outbox;
  /** Where a person's account mail goes out from; null when it cannot. */
  accountRoute: (userId: string) => Promise<{ workspaceId?: string } | null>;
  publicUrl: string;
  issueLink: (userId: string, purpose: "reset") => Promise<string>;
  logger: Logger;
}) {
  const byEmail = createAttemptLimiter({
    name: "reset:email",
    max: 3,
    windowMs: HOUR,
    now: d.now,
    counters: d.counters,
  });
  const byAddress = createAttemptLimiter({
    name: "reset:address",
    max: 10,
    windowMs: HOUR,
    now: d.now,
    counters: d.counters,
  });

  async function mailLink(email: string) {
    const user = await d.repos.users.getByEmail(email);
    if (!user) return;
    const route = await d.accountRoute(user.id);
    if (!route) return;
    const token = await d.issueLink(user.id, "reset");
    await d.outbox.send(
      passwordResetMail({ to: user.email, url: `${d.publicUrl}/account/password/${token}` }),
      `reset:${user.id}:${d.now()}`,
      route.workspaceId,
    );
  }

  return {
    /** Whether this server can send the link at all (else a person is told to ask an admin). */
    available(): Promise<boolean> {
      return d.outbox.configured();
    },
    /** Asks for a link for `email`, from `address`; resolves the same way for any email. */
    async request(rawEmail: string, address: string): Promise<void> {
      const email = rawEmail.trim().toLowerCase().slice(0, 320);
      const wait = Math.max(await byEmail.blockedFor(email), await byAddress.blockedFor(address));
      if (wait > 0) throw new RateLimitError(Math.ceil(wait / 1000));
      await byEmail.fail(email);
      await byAddress.fail(address);
      if (!(await d.outbox.configured()) || !email.includes("@")) return;
      // After the answer: how long it takes must not tell whether the account exists.
      void mailLink(email).catch((err: unknown) => d.logger.error({ err }, "queuing a password reset mail failed"));
    },
  };
}
