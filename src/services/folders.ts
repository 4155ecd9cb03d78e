import type { Repositories } from "../db/repos/index.js";
import type { FolderRow, NewFolder } from "../db/repos/folders.js";
import type { TemplateService } from "./templates.js";
import { newId } from "../core/ids.js";
import { BadRequestError, ConflictError, NotFoundError } from "../core/errors.js";
import { folderPolicy, type Actor } from "../core/access.js";
import type { Access } from "./access.js";
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

export function createFolderService(
  repos: Repositories,
  now: Clock,
  templates: Pick<TemplateService, "require">,
  access: Access,
) {
  /** A folder this caller can see, else 404: a private folder they are outside of does not exist for them. */
  async function visible(a: Actor, id: string): Promise<FolderRow> {
    const row = await repos.folders.get(a.workspaceId, id);
    if (!row || !folderPolicy.see(a, access.folderFacts(row))) throw new NotFoundError(`Folder ${id} not found.`);
    return row;
  }

  async function requireParent(a: Actor, parentId: string | null | undefined, selfId?: string): Promise<string | null> {
    if (!parentId) return null;
    const parent = await repos.folders.get(a.workspaceId, parentId);
    if (!parent || !folderPolicy.see(a, access.folderFacts(parent)))
      throw new BadRequestError(`parentFolderId: no folder ${parentId} in this workspace.`);
    // Walk up from the new parent: meeting the folder itself would make a cycle.
    for (let id: string | null = parentId, hops = 0; id && hops < 1000; hops++) {
      if (id === selfId) throw new BadRequestError("parentFolderId: a folder cannot be moved inside itself.");
      id = (await repos.folders.get(a.workspaceId, id))?.parentFolderId ?? null;
    }
    return parentId;
  }

  return {
    async create(p: Principal, input: FolderInput & { name: string; ownerUserId: string }) {
      const a = await access.actor(p);
      if (!(await repos.members.getByUser(p.workspaceId, input.ownerUserId)))
        throw new BadRequestError(`ownerUserId: no user ${input.ownerUserId} in this workspace.`);
      access.require(
        folderPolicy.create(a, input.ownerUserId),
        "ownerUserId: a member creates folders owned by themselves; only an admin can make one for someone else.",
      );
      const t = now();
      const row: NewFolder = {
        id: newId("fld"),
        workspaceId: p.workspaceId,
        name: input.name,
        icon: input.icon ?? null,
        color: input.color ?? DEFAULT_COLOR,
        isPrivate: input.isPrivate ?? false,
        parentFolderId: await requireParent(a, input.parentFolderId),
        ownerUserId: input.ownerUserId,
        templateId: input.templateId
          ? (await templates.require(p.workspaceId, input.templateId, "templateId")).id
          : null,
        createdAt: t,
        updatedAt: t,
      };
      await repos.folders.insert(row);
      return present(row);
    },

    /** Every shared folder, and the private ones the caller is a member of. */
    async list(p: Principal) {
      const a = await access.actor(p);
      const rows = await repos.folders.listWithCounts(p.workspaceId);
      return rows
        .filter((f) => folderPolicy.see(a, access.folderFacts(f)))
        .map((f) => ({
          ...present(f),
          memberCount: f.memberCount,
          isPrivate: f.isPrivate,
          templateId: f.templateId,
          mayManage: folderPolicy.manage(a, access.folderFacts(f)),
        }));
    },

    /** One folder, as the list shows it: for those who can see it (else 404). */
    async get(p: Principal, id: string) {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      return {
        ...present(folder),
        memberCount: (await repos.folders.membersOf(id)).length,
        isPrivate: folder.isPrivate,
        templateId: folder.templateId,
        mayManage: folderPolicy.manage(a, access.folderFacts(folder)),
      };
    },

    /** What a folder picker offers: id and name, by name. */
    async choices(p: Principal) {
      const a = await access.actor(p);
      return (await repos.folders.names(p.workspaceId)).filter((f) => !a.hiddenFolderIds.has(f.id));
    },

    async update(p: Principal, id: string, input: FolderInput) {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      const facts = access.folderFacts(folder);
      access.require(
        folderPolicy.manage(a, facts),
        "Only the folder's owner or an admin can change it: its name, place, template, who sees it and who owns it.",
      );
      const patch: Partial<FolderRow> = { updatedAt: now() };
      if (input.name !== undefined) patch.name = input.name;
      if (input.icon !== undefined) patch.icon = input.icon;
      if (input.color !== undefined) patch.color = input.color;
      if (input.isPrivate !== undefined) patch.isPrivate = input.isPrivate;
      if (input.ownerUserId !== undefined && input.ownerUserId !== folder.ownerUserId) {
        if (!(await repos.members.getByUser(p.workspaceId, input.ownerUserId)))
          throw new BadRequestError(`ownerUserId: no user ${input.ownerUserId} in this workspace.`);
        patch.ownerUserId = input.ownerUserId;
        await repos.folders.addMember(id, input.ownerUserId);
      }
      if (input.parentFolderId !== undefined) patch.parentFolderId = await requireParent(a, input.parentFolderId, id);
      if (input.templateId !== undefined)
        patch.templateId =
          input.templateId === null
            ? null
            : (await templates.require(p.workspaceId, input.templateId, "templateId")).id;
      await repos.folders.update(p.workspaceId, id, patch);
      return present((await repos.folders.get(p.workspaceId, id))!);
    },

    async delete(p: Principal, id: string) {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      access.require(
        folderPolicy.manage(a, access.folderFacts(folder)),
        "Only the folder's owner or an admin can delete it.",
      );
      if (!(await repos.folders.delete(p.workspaceId, id, now()))) throw new NotFoundError(`Folder ${id} not found.`);
    },

    /** One folder for its page: what it is, its members, and whether the viewer may choose them. */
    async detail(p: Principal, id: string) {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      return {
        folder: { id: folder.id, name: folder.name, isPrivate: folder.isPrivate, ownerUserId: folder.ownerUserId },
        members: await repos.folders.membersOf(id),
        mayManage: folderPolicy.manage(a, access.folderFacts(folder)),
      };
    },

    /** A folder's members (who sees it while it is private): for those who can see the folder. */
    async members(p: Principal, id: string) {
      await visible(await access.actor(p), id);
      return repos.folders.membersOf(id);
    },

    /** Adds a workspace member to a folder (its owner or an admin). */
    async addMember(p: Principal, id: string, userId: string) {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      access.require(
        folderPolicy.manage(a, access.folderFacts(folder)),
        "Only the folder's owner or an admin can choose its members.",
      );
      if (!(await repos.members.getByUser(p.workspaceId, userId)))
        throw new BadRequestError(`userId: no user ${userId} in this workspace.`);
      await repos.folders.addMember(id, userId);
      return this.members(p, id);
    },

    /** Adds everyone in a user group to a folder (its owner or an admin); says how many joined. */
    async addGroup(p: Principal, id: string, groupId: string): Promise<number> {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      access.require(
        folderPolicy.manage(a, access.folderFacts(folder)),
        "Only the folder's owner or an admin can choose its members.",
      );
      if (!(await repos.groups.existing(p.workspaceId, [groupId])).length)
        throw new BadRequestError(`groupId: no group ${groupId} in this workspace.`);
      const already = new Set((await repos.folders.membersOf(id)).map((m) => m.userId));
      const joining = (await repos.groups.userIdsOf(p.workspaceId, groupId)).filter((u) => !already.has(u));
      await repos.transaction(async () => {
        for (const userId of joining) await repos.folders.addMember(id, userId);
      });
      return joining.length;
    },

    /** Takes a member out of a folder; the owner stays. */
    async removeMember(p: Principal, id: string, userId: string) {
      const a = await access.actor(p);
      const folder = await visible(a, id);
      access.require(
        folderPolicy.manage(a, access.folderFacts(folder)),
        "Only the folder's owner or an admin can choose its members.",
      );
      if (userId === folder.ownerUserId)
        throw new ConflictError("The folder's owner stays a member; give the folder to someone else first.");
      if (!(await repos.folders.removeMember(id, userId)))
        throw new NotFoundError(`User ${userId} is not a member of folder ${id}.`);
      return this.members(p, id);
    },
  };
}

export type FolderService = ReturnType<typeof createFolderService>;
