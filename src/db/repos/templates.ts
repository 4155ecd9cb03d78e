import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../open.js";
import type { aiSettings, templates } from "../schema/index.js";
import { first, type Tables, type Transaction } from "./portable.js";

export type TemplateRow = typeof templates.$inferSelect;
export type AiSettingsRow = typeof aiSettings.$inferSelect;

export function templateRepo(db: Db, t: Tables, transaction: Transaction) {
  const { templates, folders, aiSettings } = t;
  return {
    async insert(row: TemplateRow): Promise<void> {
      await db.insert(templates).values(row);
    },
    async get(workspaceId: string, id: string): Promise<TemplateRow | null> {
      return first(
        await db
          .select()
          .from(templates)
          .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
          .limit(1),
      );
    },
    async list(workspaceId: string): Promise<TemplateRow[]> {
      return db
        .select()
        .from(templates)
        .where(eq(templates.workspaceId, workspaceId))
        .orderBy(asc(templates.createdAt), asc(templates.id));
    },
    async count(workspaceId: string): Promise<number> {
      return (await db.select({ id: templates.id }).from(templates).where(eq(templates.workspaceId, workspaceId)))
        .length;
    },
    async update(workspaceId: string, id: string, patch: Partial<TemplateRow>): Promise<boolean> {
      const changed = await db
        .update(templates)
        .set(patch)
        .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
        .returning({ id: templates.id });
      return changed.length > 0;
    },
    /** Deletes a template and clears the folder defaults that named it (the workspace default is the caller's). */
    delete(workspaceId: string, id: string): Promise<boolean> {
      return transaction(async () => {
        const gone = await db
          .delete(templates)
          .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
          .returning({ id: templates.id });
        if (gone.length === 0) return false;
        await db
          .update(folders)
          .set({ templateId: null })
          .where(and(eq(folders.workspaceId, workspaceId), eq(folders.templateId, id)));
        return true;
      });
    },
    async settings(workspaceId: string): Promise<AiSettingsRow | null> {
      return first(await db.select().from(aiSettings).where(eq(aiSettings.workspaceId, workspaceId)).limit(1));
    },
    async saveSettings(row: AiSettingsRow): Promise<void> {
      await db
        .insert(aiSettings)
        .values(row)
        .onConflictDoUpdate({
          target: aiSettings.workspaceId,
          set: {
            settings: row.settings,
            sttApiKeyEnc: row.sttApiKeyEnc,
            llmApiKeyEnc: row.llmApiKeyEnc,
            updatedAt: row.updatedAt,
          },
        });
    },
  };
}
