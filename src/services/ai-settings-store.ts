// Where a workspace's AI settings are kept: one row beside its templates, the values
// validated on the way in and out, the keys sealed apart (never read here).
import type { Repositories } from "../db/repos/index.js";
import type { Clock } from "../core/clock.js";
import { AiSettingsValue, type AiSettings } from "../shared/schemas/templates.js";

/** Reads and writes a workspace's stored settings (never its keys). */
export interface AiSettingsStore {
  read(workspaceId: string): Promise<AiSettings>;
  write(workspaceId: string, change: (s: AiSettings) => AiSettings): Promise<void>;
}

export function createAiSettingsStore(repos: Repositories, now: Clock): AiSettingsStore {
  return {
    async read(workspaceId) {
      const row = await repos.templates.settings(workspaceId);
      // Stored values were validated on the way in; a value an older version wrote and
      // this one no longer accepts is dropped rather than failing every note.
      const parsed = AiSettingsValue.safeParse(row?.settings ?? {});
      return parsed.success ? parsed.data : {};
    },
    async write(workspaceId, change) {
      await repos.transaction(async () => {
        const row = await repos.templates.settings(workspaceId);
        const current = AiSettingsValue.safeParse(row?.settings ?? {});
        const next = AiSettingsValue.parse(change(current.success ? current.data : {}));
        await repos.templates.saveSettings({
          workspaceId,
          settings: next as Record<string, unknown>,
          sttApiKeyEnc: row?.sttApiKeyEnc ?? null,
          llmApiKeyEnc: row?.llmApiKeyEnc ?? null,
          updatedAt: now(),
        });
      });
    },
  };
}
