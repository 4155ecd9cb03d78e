// A workspace's own SMTP server (sealed) and sender.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { mailSettings } from "../schema/index.js";
import { first, sqliteTables, type Tables } from "./portable.js";

export type MailSettingsRow = typeof mailSettings.$inferSelect;

export function mailSettingsRepo(db: Db, t: Tables = sqliteTables) {
  const { mailSettings, members } = t;
  return {
    get: async (workspaceId: string): Promise<MailSettingsRow | null> =>
      first(await db.select().from(mailSettings).where(eq(mailSettings.workspaceId, workspaceId)).limit(1)),
    async save(row: MailSettingsRow): Promise<void> {
      await db
        .insert(mailSettings)
        .values(row)
        .onConflictDoUpdate({
          target: mailSettings.workspaceId,
          set: { smtpUrlEnc: row.smtpUrlEnc, fromAddress: row.fromAddress, updatedAt: row.updatedAt },
        });
    },
    async remove(workspaceId: string): Promise<void> {
      await db.delete(mailSettings).where(eq(mailSettings.workspaceId, workspaceId));
    },
    /** Whether any workspace has its own mail server (the sign-in page's "Forgot password?"). */
    any: async (): Promise<boolean> =>
      (await db.select({ id: mailSettings.workspaceId }).from(mailSettings).limit(1)).length > 0,
    /** The oldest of a person's workspaces that has its own mail server: where their account mail goes from. */
    async forUser(userId: string): Promise<MailSettingsRow | null> {
      return first(
        await db
          .select({
            workspaceId: mailSettings.workspaceId,
            smtpUrlEnc: mailSettings.smtpUrlEnc,
            fromAddress: mailSettings.fromAddress,
            updatedAt: mailSettings.updatedAt,
          })
          .from(members)
          .innerJoin(mailSettings, eq(mailSettings.workspaceId, members.workspaceId))
          .where(eq(members.userId, userId))
          .orderBy(asc(members.createdAt), asc(members.workspaceId))
          .limit(1),
      );
    },
  };
}
