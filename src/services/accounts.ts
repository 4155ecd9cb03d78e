// People's accounts in the browser: password sign-in (rate-limited, one message for
// every failure), server-side sessions with their CSRF token, one-time links to set a
// password (the first admin's setup, an admin's reset), and password changes.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
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

export function createAccountService(repos: Repositories, workspaces: WorkspaceService, now: Clock) {
  // Per account and per address: guessing one password fast, or many accounts from one place.
  const byAccount = createAttemptLimiter({ max: 10, windowMs: 15 * 60_000, now });
  const byAddress = createAttemptLimiter({ max: 50, windowMs: 15 * 60_000, now });

  function openSession(userId: string, userAgent: string): SignedIn {
    const sessionId = secret();
    const t = now();
    repos.sessions.insert({
      idHash: sha(sessionId),
      userId,
      expiresAt: t + SESSION_TTL_MS,
      workspaceId: repos.workspaces.ofUser(userId)[0]?.id ?? null,
      csrf: secret(24),
      userAgent: userAgent.slice(0, 300),
      createdAt: t,
      lastSeenAt: t,
    });
    return { sessionId, userId };
  }

  function checkPassword(password: string) {
    const problem = passwordProblem(password);
    if (problem) throw new BadRequestError(problem);
  }

  return {
    /** Email and password; null for any mismatch, with the same work done either way. */
    signIn(input: { email: string; password: string; address: string; userAgent: string }): SignedIn | null {
      const email = input.email.trim().toLowerCase();
      const wait = Math.max(byAccount.blockedFor(email), byAddress.blockedFor(input.address));
      if (wait > 0) throw new RateLimitError(Math.ceil(wait / 1000));
      const user = repos.users.getByEmail(email);
      const ok = verifyPassword(input.password.slice(0, 1024), user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !user.passwordHash || !ok) {
        byAccount.fail(email);
        byAddress.fail(input.address);
        return null;
      }
      byAccount.clear(email);
      return openSession(user.id, input.userAgent);
    },

    /**
     * A session for a user the upstream identity provider vouched for. Someone without an
     * account joins, as a member, the workspaces that admit their email's domain; null
     * when none does.
     */
    signInVerified(identity: { email: string; name: string }, userAgent: string): SignedIn | null {
      const email = identity.email.trim().toLowerCase();
      const user = repos.users.getByEmail(email) ?? workspaces.joinByAllowedDomain(email, identity.name);
      return user ? openSession(user.id, userAgent) : null;
    },

    /** The live session behind a cookie value, extended as it is used; null otherwise. */
    session(sessionId: string | undefined): WebSessionRow | null {
      if (!sessionId) return null;
      const idHash = sha(sessionId);
      const row = repos.sessions.get(idHash);
      const t = now();
      if (!row || row.expiresAt <= t) return null;
      if (t - row.lastSeenAt > TOUCH_EVERY_MS) repos.sessions.update(idHash, { lastSeenAt: t, expiresAt: t + SESSION_TTL_MS });
      return row;
    },

    /** The session's member: in its workspace, or the user's first while none is picked (or it was left). */
    membership(session: WebSessionRow) {
      return repos.sessions.membership(session.userId, session.workspaceId) ?? (session.workspaceId ? repos.sessions.membership(session.userId, null) : null);
    },

    csrfMatches(session: WebSessionRow, given: unknown): boolean {
      return typeof given === "string" && session.csrf.length > 0 && safeEqual(session.csrf, given);
    },

    chooseWorkspace(session: WebSessionRow, workspaceId: string): boolean {
      if (!repos.members.getByUser(workspaceId, session.userId)) return false;
      repos.sessions.update(session.idHash, { workspaceId });
      return true;
    },

    signOut(session: WebSessionRow): void {
      repos.sessions.delete(session.idHash);
    },

    sessions(session: WebSessionRow): SessionView[] {
      return repos.sessions.listForUser(session.userId, now()).map((s) => ({
        handle: s.idHash.slice(0, 16),
        userAgent: s.userAgent,
        createdAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
        current: s.idHash === session.idHash,
      }));
    },

    /** Signs out one of the user's other sessions, by its handle. */
    revokeSession(session: WebSessionRow, handle: string): void {
      const target = repos.sessions.listForUser(session.userId, now()).find((s) => s.idHash.slice(0, 16) === handle);
      if (!target) throw new NotFoundError("No such session.");
      repos.sessions.delete(target.idHash);
    },

    signOutOthers(session: WebSessionRow): number {
      return repos.sessions.deleteForUser(session.userId, session.idHash);
    },

    changePassword(session: WebSessionRow, current: string, next: string): void {
      const user = repos.users.get(session.userId);
      if (!user) throw new NotFoundError("No such user.");
      if (user.passwordHash && !verifyPassword(current, user.passwordHash)) throw new BadRequestError("The current password is not right.");
      checkPassword(next);
      repos.transaction(() => {
        repos.users.update(user.id, { passwordHash: hashPassword(next) });
        // Whoever knew the old password is signed out everywhere else.
        repos.sessions.deleteForUser(user.id, session.idHash);
      });
    },

    rename(session: WebSessionRow, name: string): void {
      const trimmed = name.trim();
      if (!trimmed || trimmed.length > 200) throw new BadRequestError("The name needs 1 to 200 characters.");
      repos.users.update(session.userId, { name: trimmed });
    },

    /** A one-time link token to set a password; earlier unused ones of the same purpose stop working. */
    issueLink(userId: string, purpose: "setup" | "reset"): string {
      if (!repos.users.get(userId)) throw new NotFoundError(`User ${userId} not found.`);
      const token = secret();
      repos.transaction(() => {
        repos.sessions.dropTokens(userId, purpose);
        repos.sessions.insertToken({ tokenHash: sha(token), userId, purpose, expiresAt: now() + LINK_TTL_MS[purpose], usedAt: null, createdAt: now() });
      });
      return token;
    },

    /** Whose link this is, while it can still be used. */
    linkUser(token: string): { userId: string; email: string; purpose: "setup" | "reset" } | null {
      const row = repos.sessions.token(sha(token));
      if (!row || row.usedAt !== null || row.expiresAt <= now()) return null;
      const user = repos.users.get(row.userId);
      return user ? { userId: user.id, email: user.email, purpose: row.purpose } : null;
    },

    /** Sets the password through a link, once; every other session of the user ends; signs in. */
    usePasswordLink(token: string, password: string, userAgent: string): SignedIn {
      checkPassword(password);
      const row = repos.sessions.token(sha(token));
      if (!row || row.usedAt !== null || row.expiresAt <= now()) throw new NotFoundError("This link has expired or has been used; ask for a new one.");
      return repos.transaction(() => {
        if (!repos.sessions.useToken(row.tokenHash, now())) throw new NotFoundError("This link has been used already.");
        repos.users.update(row.userId, { passwordHash: hashPassword(password) });
        repos.sessions.deleteForUser(row.userId, null);
        return openSession(row.userId, userAgent);
      });
    },

    /** Sets a user's password directly (the terminal's `notula admin users set-password`). */
    setPassword(userId: string, password: string): void {
      checkPassword(password);
      if (!repos.users.get(userId)) throw new NotFoundError(`User ${userId} not found.`);
      repos.transaction(() => {
        repos.users.update(userId, { passwordHash: hashPassword(password) });
        repos.sessions.deleteForUser(userId, null);
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
