import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../open.js";
import { oauthClients, oauthCodes, oauthRefreshTokens, oauthRequests } from "../schema/index.js";

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type OAuthRequestRow = typeof oauthRequests.$inferSelect;
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;
export type RefreshRow = typeof oauthRefreshTokens.$inferSelect;

export function oauthRepo(db: Db) {
  return {
    insertClient: (row: OAuthClientRow) => void db.insert(oauthClients).values(row).run(),
    client: (id: string) => db.select().from(oauthClients).where(eq(oauthClients.id, id)).get() ?? null,
    insertRequest: (row: OAuthRequestRow) => void db.insert(oauthRequests).values(row).run(),
    request: (id: string) => db.select().from(oauthRequests).where(eq(oauthRequests.id, id)).get() ?? null,
    updateRequest: (id: string, patch: Partial<OAuthRequestRow>) => void db.update(oauthRequests).set(patch).where(eq(oauthRequests.id, id)).run(),
    deleteRequest: (id: string) => void db.delete(oauthRequests).where(eq(oauthRequests.id, id)).run(),
    insertCode: (row: OAuthCodeRow) => void db.insert(oauthCodes).values(row).run(),
    /** Marks a code used; `fresh` is false if it had been used before (single use, even under races). */
    useCode(codeHash: string, now: number): { row: OAuthCodeRow; fresh: boolean } | null {
      return db.transaction((tx) => {
        const row = tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).get();
        if (!row) return null;
        const changed = tx.update(oauthCodes).set({ usedAt: now }).where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt))).run().changes;
        return { row, fresh: changed > 0 };
      });
    },
    insertRefresh: (row: RefreshRow) => void db.insert(oauthRefreshTokens).values(row).run(),
    refresh: (hash: string) => db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, hash)).get() ?? null,
    /** Marks a refresh token rotated; false if another request rotated it first. */
    rotate: (hash: string, now: number) =>
      db.update(oauthRefreshTokens).set({ rotatedAt: now }).where(and(eq(oauthRefreshTokens.tokenHash, hash), isNull(oauthRefreshTokens.rotatedAt))).run().changes > 0,
    /** Every refresh token a user holds for a workspace, when they leave it. */
    revokeForMember: (workspaceId: string, userId: string, now: number) =>
      void db
        .update(oauthRefreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(oauthRefreshTokens.workspaceId, workspaceId), eq(oauthRefreshTokens.userId, userId), isNull(oauthRefreshTokens.revokedAt)))
        .run(),
    revokeFamily: (familyId: string, now: number) =>
      void db.update(oauthRefreshTokens).set({ revokedAt: now }).where(and(eq(oauthRefreshTokens.familyId, familyId), isNull(oauthRefreshTokens.revokedAt))).run(),
  };
}
