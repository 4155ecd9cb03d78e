// People's accounts in the browser: password sign-in (rate-limited, one message for
// every failure), server-side sessions with their CSRF token, one-time links to set a
// password (the first admin's setup, an admin's reset), and password changes.
import { canonicalZone } from "../core/time-zone.js";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { CounterStore } from "./counters.js";
import type { Repositories } from "../db/repos/index.js";
import type { WebSessionRow } from "../db/repos/sessions.js";
import { createAttemptLimiter } from "../core/attempt-limiter.js";
import type { Clock } from "../core/clock.js";
import type { WorkspaceService } from "./workspaces.js";
import { BadRequestError, NotFoundError, RateLimitError } from "../core/errors.js";
import { DUMMY_PASSWORD_HASH, hashPassword, passwordProblem, verifyPassword } from "../core/passwords.js";

export const SESSION_TTL_MS = 14 * 24 * 3600_000;
/** A session is extended at most this often, so that reads do not all write. */
const TOUCH_EVERY_MS = 60_000;
export const LINK_TTL_MS = { setup: 7 * 24 * 3600_000, reset: 24 * 3600_000 } as const;

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const secret = (bytes = 32) => randomBytes(bytes).toString("base64url");
const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface SignedIn {
  /** The cookie value; never stored. */
  sessionId: string;
  userId: string;
}

export interface SessionView {
  /** A stable handle for the list and for revoking, derived from the stored hash. */
  handle: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

export function createAccountService(
  repos: Repositories,
  workspaces: WorkspaceService,
  now: Clock,
  counters: CounterStore,
) {
  // Per account and per address: guessing one password fast, or many accounts from one place.
  const byAccount = createAttemptLimiter({ name: "sign-in:account", max: 10, windowMs: 15 * 60_000, now, counters });
  const byAddress = createAttemptLimiter({ name: "sign-in:address", max: 50, windowMs: 15 * 60_000, now, counters });

  /**
   * A session for the user. The browser's zone, when the sign-in form carried it, becomes
   * the person's zone if they have none yet: one chosen in Settings → Account stays.
   */
  async function openSession(userId: string, userAgent: string, browserZone?: string): Promise<SignedIn> {
    const sessionId = secret();
    const t = now();
    const zone = browserZone ? canonicalZone(browserZone) : null;
    if (zone && !(await repos.users.get(userId))?.timeZone) await repos.users.update(userId, { timeZone: zone });
    await repos.sessions.insert({
      idHash: sha(sessionId),
      userId,
      expiresAt: t + SESSION_TTL_MS,
      workspaceId: (await repos.workspaces.ofUser(userId))[0]?.id ?? null,
      csrf: secret(24),
      userAgent: userAgent.slice(0, 300),
      createdAt: t,
      lastSeenAt: t,
    });
    return { sessionId, userId };
  }

  /** The account whose password this is, or null; failures count per account and per address. */
  async function throttledCheck(input: { email: string; password: string; address: string }) {
    const email = input.email.trim().toLowerCase();
    const wait = Math.max(await byAccount.blockedFor(email), await byAddress.blockedFor(input.address));
    if (wait > 0) throw new RateLimitError(Math.ceil(wait / 1000));
    const user = await repos.users.getByEmail(email);
    const ok = verifyPassword(input.password.slice(0, 1024), user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !user.passwordHash || !ok) {
      await byAccount.fail(email);
      await byAddress.fail(input.address);
      return null;
    }
    await byAccount.clear(email);
    return user;
  }

  function checkPassword(password: string) {
    const problem = passwordProblem(password);
    if (problem) throw new BadRequestError(problem);
  }

  return {
    /**
     * Whether this is the account's password, counted against the same limits as signing
     * in (per account and per address): every place that takes a password for an email
     * (an invite joining an existing account) is as slow to guess through as sign-in.
     */
    async passwordMatches(input: { email: string; password: string; address: string }): Promise<boolean> {
      return (await throttledCheck(input)) !== null;
    },

    /** Email and password; null for any mismatch, with the same work done either way. */
    async signIn(input: {
      email: string;
      password: string;
      address: string;
      userAgent: string;
      /** The browser's time zone, as its script reads it. */
      timeZone?: string;
    }): Promise<SignedIn | null> {
      const user = await throttledCheck(input);
      return user ? openSession(user.id, input.userAgent, input.timeZone) : null;
    },

    /**
     * A session for a user the upstream identity provider vouched for. Someone without an
     * account joins, as a member, the workspaces that admit their email's domain; null
     * when none does.
     */
    async signInVerified(identity: { email: string; name: string }, userAgent: string): Promise<SignedIn | null> {
      const email = identity.email.trim().toLowerCase();
      const user =
        (await repos.users.getByEmail(email)) ?? (await workspaces.joinByAllowedDomain(email, identity.name));
      return user ? await openSession(user.id, userAgent) : null;
    },

    /** The live session behind a cookie value, extended as it is used; null otherwise. */
    async session(sessionId: string | undefined): Promise<WebSessionRow | null> {
      if (!sessionId) return null;
      const idHash = sha(sessionId);
      const row = await repos.sessions.get(idHash);
      const t = now();
      if (!row || row.expiresAt <= t) return null;
      if (t - row.lastSeenAt > TOUCH_EVERY_MS)
        await repos.sessions.update(idHash, { lastSeenAt: t, expiresAt: t + SESSION_TTL_MS });
      return row;
    },

    /** The session's member: in its workspace, or the user's first while none is picked (or it was left). */
    async membership(session: WebSessionRow) {
      return (
        (await repos.sessions.membership(session.userId, session.workspaceId)) ??
        (session.workspaceId ? await repos.sessions.membership(session.userId, null) : null)
      );
    },

    csrfMatches(session: WebSessionRow, given: unknown): boolean {
      return typeof given === "string" && session.csrf.length > 0 && safeEqual(session.csrf, given);
    },

    async chooseWorkspace(session: WebSessionRow, workspaceId: string): Promise<boolean> {
      if (!(await repos.members.getByUser(workspaceId, session.userId))) return false;
      await repos.sessions.update(session.idHash, { workspaceId });
      return true;
    },

    async signOut(session: WebSessionRow): Promise<void> {
      await repos.sessions.delete(session.idHash);
    },

    async sessions(session: WebSessionRow): Promise<SessionView[]> {
      return (await repos.sessions.listForUser(session.userId, now())).map((s) => ({
        handle: s.idHash.slice(0, 16),
        userAgent: s.userAgent,
        createdAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
        current: s.idHash === session.idHash,
      }));
    },

    /** Signs out one of the user's other sessions, by its handle. */
    async revokeSession(session: WebSessionRow, handle: string): Promise<void> {
      const target = (await repos.sessions.listForUser(session.userId, now())).find(
        (s) => s.idHash.slice(0, 16) === handle,
      );
      if (!target) throw new NotFoundError("No such session.");
      await repos.sessions.delete(target.idHash);
    },

    async signOutOthers(session: WebSessionRow): Promise<number> {
      return await repos.sessions.deleteForUser(session.userId, session.idHash);
    },

    async changePassword(session: WebSessionRow, current: string, next: string): Promise<void> {
      const user = await repos.users.get(session.userId);
      if (!user) throw new NotFoundError("No such user.");
      if (user.passwordHash && !verifyPassword(current, user.passwordHash))
        throw new BadRequestError("The current password is not right.");
      checkPassword(next);
      await repos.transaction(async () => {
        await repos.users.update(user.id, { passwordHash: hashPassword(next) });
        // Whoever knew the old password is signed out everywhere else.
        await repos.sessions.deleteForUser(user.id, session.idHash);
      });
    },

    /** The zone the web app writes this person's times in; "" goes back to the browser's at the next sign-in. */
    async setTimeZone(session: WebSessionRow, zone: string): Promise<void> {
      const canonical = zone ? canonicalZone(zone) : null;
      if (zone && !canonical) throw new BadRequestError(`timeZone: "${zone.slice(0, 64)}" is not a time zone.`);
      await repos.users.update(session.userId, { timeZone: canonical });
    },

    async rename(session: WebSessionRow, name: string): Promise<void> {
      const trimmed = name.trim();
      if (!trimmed || trimmed.length > 200) throw new BadRequestError("The name needs 1 to 200 characters.");
      await repos.users.update(session.userId, { name: trimmed });
    },

    /** A one-time link token to set a password; earlier unused ones of the same purpose stop working. */
    async issueLink(userId: string, purpose: "setup" | "reset"): Promise<string> {
      if (!(await repos.users.get(userId))) throw new NotFoundError(`User ${userId} not found.`);
      const token = secret();
      await repos.transaction(async () => {
        await repos.sessions.dropTokens(userId, purpose);
        await repos.sessions.insertToken({
          tokenHash: sha(token),
          userId,
          purpose,
          expiresAt: now() + LINK_TTL_MS[purpose],
          usedAt: null,
          createdAt: now(),
        });
      });
      return token;
    },

    /** Whose link this is, while it can still be used. */
    async linkUser(token: string): Promise<{ userId: string; email: string; purpose: "setup" | "reset" } | null> {
      const row = await repos.sessions.token(sha(token));
      if (!row || row.usedAt !== null || row.expiresAt <= now()) return null;
      const user = await repos.users.get(row.userId);
      return user ? { userId: user.id, email: user.email, purpose: row.purpose } : null;
    },

    /** Sets the password through a link, once; every other session of the user ends; signs in. */
    async usePasswordLink(token: string, password: string, userAgent: string, timeZone?: string): Promise<SignedIn> {
      checkPassword(password);
      const row = await repos.sessions.token(sha(token));
      if (!row || row.usedAt !== null || row.expiresAt <= now())
        throw new NotFoundError("This link has expired or has been used; ask for a new one.");
      return await repos.transaction(async () => {
        if (!(await repos.sessions.useToken(row.tokenHash, now())))
          throw new NotFoundError("This link has been used already.");
        await repos.users.update(row.userId, { passwordHash: hashPassword(password) });
        await repos.sessions.deleteForUser(row.userId, null);
        return openSession(row.userId, userAgent, timeZone);
      });
    },

    /** Sets a user's password directly (the terminal's `notula admin users set-password`). */
    async setPassword(userId: string, password: string): Promise<void> {
      checkPassword(password);
      if (!(await repos.users.get(userId))) throw new NotFoundError(`User ${userId} not found.`);
      await repos.transaction(async () => {
        await repos.users.update(userId, { passwordHash: hashPassword(password) });
        await repos.sessions.deleteForUser(userId, null);
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
