import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../open.js";
import type { oauthClients, oauthCodes, oauthRefreshTokens, oauthRequests } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type OAuthRequestRow = typeof oauthRequests.$inferSelect;
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;
export type RefreshRow = typeof oauthRefreshTokens.$inferSelect;

export function oauthRepo(db: Db, t: Tables = sqliteTables) {
  const { oauthClients, oauthCodes, oauthRefreshTokens, oauthRequests } = t;
  return {
    async insertClient(row: OAuthClientRow): Promise<void> {
      await db.insert(oauthClients).values(row);
    },
    client: async (id: string) => first(await db.select().from(oauthClients).where(eq(oauthClients.id, id)).limit(1)),
    async insertRequest(row: OAuthRequestRow): Promise<void> {
      await db.insert(oauthRequests).values(row);
    },
    request: async (id: string) =>
      first(await db.select().from(oauthRequests).where(eq(oauthRequests.id, id)).limit(1)),
    async updateRequest(id: string, patch: Partial<OAuthRequestRow>): Promise<void> {
      await db.update(oauthRequests).set(patch).where(eq(oauthRequests.id, id));
    },
    async deleteRequest(id: string): Promise<void> {
      await db.delete(oauthRequests).where(eq(oauthRequests.id, id));
    },
    async insertCode(row: OAuthCodeRow): Promise<void> {
      await db.insert(oauthCodes).values(row);
    },
    /** Marks a code used; `fresh` is false if it had been used before (single use, even under races: one UPDATE decides). */
    async useCode(codeHash: string, now: number): Promise<{ row: OAuthCodeRow; fresh: boolean } | null> {
      const row = first(await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1));
      if (!row) return null;
      const marked = await db
        .update(oauthCodes)
        .set({ usedAt: now })
        .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
        .returning({ h: oauthCodes.codeHash });
      return { row, fresh: marked.length > 0 };
    },
    async insertRefresh(row: RefreshRow): Promise<void> {
      await db.insert(oauthRefreshTokens).values(row);
    },
    refresh: async (hash: string) =>
      first(await db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, hash)).limit(1)),
    /** Marks a refresh token rotated; false if another request rotated it first. */
    async rotate(hash: string, now: number): Promise<boolean> {
      const marked = await db
        .update(oauthRefreshTokens)
        .set({ rotatedAt: now })
        .where(and(eq(oauthRefreshTokens.tokenHash, hash), isNull(oauthRefreshTokens.rotatedAt)))
        .returning({ h: oauthRefreshTokens.tokenHash });
      return marked.length > 0;
    },
    /** Every refresh token a user holds for a workspace, when they leave it. */
    async revokeForMember(workspaceId: string, userId: string, now: number): Promise<void> {
      await db
        .update(oauthRefreshTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(oauthRefreshTokens.workspaceId, workspaceId),
            eq(oauthRefreshTokens.userId, userId),
            isNull(oauthRefreshTokens.revokedAt),
          ),
        );
    },
    async revokeFamily(familyId: string, now: number): Promise<void> {
      await db
        .update(oauthRefreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(oauthRefreshTokens.familyId, familyId), isNull(oauthRefreshTokens.revokedAt)));
    },
  };
}
