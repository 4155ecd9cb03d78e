// Housekeeping queries: what has expired or outlived its use, removed in bulk by the
// periodic sweep. Portable (awaited query builders only), like the repositories it tidies after.
import { and, asc, eq, inArray, isNotNull, lt, lte, notExists, or } from "drizzle-orm";
import type { Db } from "../open.js";
import type { Tables } from "./portable.js";

export interface StaleUpload {
  id: string;
  workspaceId: string;
  extension: string;
  status: string;
}

export function maintenanceRepo(db: Db, t: Tables) {
  const {
    oauthClients,
    oauthRequests,
    oauthCodes,
    oauthRefreshTokens,
    webSessions,
    accountTokens,
    audioUploads,
    recordings,
    jobs,
    webhookEvents,
    notes,
  } = t;
  const gone = (rows: unknown[]) => rows.length;
  return {
    /** A workspace's recordings that wait for a speech-to-text engine, oldest first (for the engine watch). */
    async awaitingEngine(
      workspaceId: string,
      limit: number,
    ): Promise<{ id: string; processingInfo: Record<string, string> | null }[]> {
      return await db
        .select({ id: notes.id, processingInfo: notes.processingInfo })
        .from(notes)
        .where(
          and(
            isNotNull(notes.awaitingEngineSince),
            eq(notes.workspaceId, workspaceId),
            eq(notes.status, "recorded-not-summarized"),
          ),
        )
        .orderBy(asc(notes.awaitingEngineSince))
        .limit(limit);
    },

    /** Sign-in requests, codes, tokens and sessions past their expiry; counts by kind. */
    async deleteExpired(now: number): Promise<Record<string, number>> {
      return {
        oauthRequests: gone(
          await db.delete(oauthRequests).where(lte(oauthRequests.expiresAt, now)).returning({ id: oauthRequests.id }),
        ),
        oauthCodes: gone(
          await db.delete(oauthCodes).where(lte(oauthCodes.expiresAt, now)).returning({ id: oauthCodes.codeHash }),
        ),
        oauthRefreshTokens: gone(
          await db
            .delete(oauthRefreshTokens)
            .where(lte(oauthRefreshTokens.expiresAt, now))
            .returning({ id: oauthRefreshTokens.tokenHash }),
        ),
        webSessions: gone(
          await db.delete(webSessions).where(lte(webSessions.expiresAt, now)).returning({ id: webSessions.idHash }),
        ),
        accountTokens: gone(
          await db
            .delete(accountTokens)
            .where(lte(accountTokens.expiresAt, now))
            .returning({ id: accountTokens.tokenHash }),
        ),
      };
    },
    /**
     * OAuth clients registered before `before` that never got a token: registration is
     * open to anyone, so what is never used does not stay.
     */
    async deleteUnusedClients(before: number): Promise<number> {
      const tokens = db
        .select({ id: oauthRefreshTokens.tokenHash })
        .from(oauthRefreshTokens)
        .where(eq(oauthRefreshTokens.clientId, oauthClients.id));
      const codes = db
        .select({ id: oauthCodes.codeHash })
        .from(oauthCodes)
        .where(eq(oauthCodes.clientId, oauthClients.id));
      const requests = db
        .select({ id: oauthRequests.id })
        .from(oauthRequests)
        .where(eq(oauthRequests.clientId, oauthClients.id));
      return gone(
        await db
          .delete(oauthClients)
          .where(and(lt(oauthClients.createdAt, before), notExists(tokens), notExists(codes), notExists(requests)))
          .returning({ id: oauthClients.id }),
      );
    },
    /**
     * Uploads nobody will finish or use: never sent (or cut off) and past their URL's
     * expiry by `pendingGraceMs`; sent but never made into a note for `unusedGraceMs`.
     */
    async staleUploads(
      now: number,
      pendingGraceMs: number,
      unusedGraceMs: number,
      limit = 500,
    ): Promise<StaleUpload[]> {
      return await db
        .select({
          id: audioUploads.id,
          workspaceId: audioUploads.workspaceId,
          extension: audioUploads.extension,
          status: audioUploads.status,
        })
        .from(audioUploads)
        .where(
          or(
            and(
              inArray(audioUploads.status, ["pending", "receiving"]),
              lt(audioUploads.expiresAt, now - pendingGraceMs),
            ),
            and(eq(audioUploads.status, "uploaded"), lt(audioUploads.expiresAt, now - unusedGraceMs)),
          ),
        )
        .limit(limit);
    },
    /** Removes an upload's row, only if it is still in the state it was found in (a late PUT or note wins). */
    async deleteUpload(id: string, status: string): Promise<boolean> {
      return (
        gone(
          await db
            .delete(audioUploads)
            .where(and(eq(audioUploads.id, id), eq(audioUploads.status, status as "pending")))
            .returning({ id: audioUploads.id }),
        ) > 0
      );
    },
    /** Which of these ids have an upload's or a recording's row (any state): a file whose id has none is an orphan. */
    async existingUploadIds(ids: string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const uploads = await db.select({ id: audioUploads.id }).from(audioUploads).where(inArray(audioUploads.id, ids));
      const live = await db.select({ id: recordings.id }).from(recordings).where(inArray(recordings.id, ids));
      return new Set([...uploads, ...live].map((r) => r.id));
    },
    /** Finished jobs older than `before`: the queue's history, not its work. */
    async deleteFinishedJobs(before: number): Promise<number> {
      return gone(
        await db
          .delete(jobs)
          .where(and(inArray(jobs.status, ["succeeded", "failed"]), lt(jobs.updatedAt, before)))
          .returning({ id: jobs.id }),
      );
    },
    /** Webhook events (and, by cascade, their delivery log) older than `before`. */
    async deleteOldEvents(before: number): Promise<number> {
      return gone(
        await db.delete(webhookEvents).where(lt(webhookEvents.createdAt, before)).returning({ id: webhookEvents.id }),
      );
    },
  };
}
