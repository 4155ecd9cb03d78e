import type { Repositories } from "../db/repos/index.js";
import type { FolderRow, NewFolder } from "../db/repos/folders.js";
import type { TemplateService } from "./templates.js";
import { newId } from "../core/ids.js";
import { BadRequestError, NotFoundError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import { iso, type Clock } from "../core/clock.js";

const DEFAULT_COLOR = "#6B7280";

export interface FolderInput {
  name?: string;
  ownerUserId?: string;
  icon?: string | null;
  color?: string;
  isPrivate?: boolean;
  parentFolderId?: string | null;
  /** The template notes filed here are enhanced with; null for the workspace default. */
  templateId?: string | null;
}

function present(f: NewFolder) {
  return { id: f.id, name: f.name, icon: f.icon, parentFolderId: f.parentFolderId, createdAt: iso(f.createdAt) };
}

export function createFolderService(repos: Repositories, now: Clock, templates: Pick<TemplateService, "require">) {
  async function requireParent(p: Principal, parentId: string | null | undefined, selfId?: string): Promise<string|null> {
    if (!parentId) return null;
    if (!(await repos.folders.get(p.workspaceId, parentId)))
      throw new BadRequestError(`parentFolderId: no folder ${parentId} in this workspace.`);
    // Walk up from the new parent: meeting the folder itself would make a cycle.
    for (let id: string | null = parentId, hops = 0; id && hops < 1000; hops++) {
      if (id === selfId) throw new BadRequestError("parentFolderId: a folder cannot be moved inside itself.");
      id = (await repos.folders.get(p.workspaceId, id))?.parentFolderId ?? null;
    }
    return parentId;
  }

  return {
    async create(p: Principal, input: FolderInput & { name: string; ownerUserId: string }) {
      if (!(await repos.members.getByUser(p.workspaceId, input.ownerUserId)))
        throw new BadRequestError(`ownerUserId: no user ${input.ownerUserId} in this workspace.`);
      const t = now();
      const row: NewFolder = {
        id: newId("fld"),
        workspaceId: p.workspaceId,
        name: input.name,
        icon: input.icon ?? null,
        color: input.color ?? DEFAULT_COLOR,
        isPrivate: input.isPrivate ?? false,
        parentFolderId: await requireParent(p, input.parentFolderId),
        ownerUserId: input.ownerUserId,
        templateId: input.templateId ? (await templates.require(p.workspaceId, input.templateId, "templateId")).id : null,
        createdAt: t,
        updatedAt: t,
      };
      await repos.folders.insert(row);
      return present(row);
    },

    async list(p: Principal) {
      return (await repos.folders.listVisible(p.workspaceId, p.userId)).map((f) => ({ ...present(f), memberCount: f.memberCount, isPrivate: f.isPrivate, templateId: f.templateId }));
    },

    /** What a folder picker offers: id and name, by name. */
    async choices(p: Principal) {
      return await repos.folders.namesVisible(p.workspaceId, p.userId);
    },

    async update(p: Principal, id: string, input: FolderInput) {
      if (!(await repos.folders.get(p.workspaceId, id))) throw new NotFoundError(`Folder ${id} not found.`);
      const patch: Partial<FolderRow> = { updatedAt: now() };
      if (input.name !== undefined) patch.name = input.name;
      if (input.icon !== undefined) patch.icon = input.icon;
      if (input.color !== undefined) patch.color = input.color;
      if (input.isPrivate !== undefined) patch.isPrivate = input.isPrivate;
      if (input.parentFolderId !== undefined) patch.parentFolderId = await requireParent(p, input.parentFolderId, id);
      if (input.templateId !== undefined)
        patch.templateId = input.templateId === null ? null : (await templates.require(p.workspaceId, input.templateId, "templateId")).id;
      await repos.folders.update(p.workspaceId, id, patch);
      return present((await repos.folders.get(p.workspaceId, id))!);
    },

    async delete(p: Principal, id: string) {
      if (!(await repos.folders.delete(p.workspaceId, id, now()))) throw new NotFoundError(`Folder ${id} not found.`);
    },
  };
}

export type FolderService = ReturnType<typeof createFolderService>;
