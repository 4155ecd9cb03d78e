// The workspace's people and labels: members, user groups and workspace tags.
import type { VoicePrints } from "./voice-prints.js";
import type { Repositories } from "../db/repos/index.js";
import type { MemberRecord } from "../db/repos/members.js";
import { newId } from "../core/ids.js";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../core/errors.js";
import { scopesForRole, workspacePolicy } from "../core/access.js";
import type { Access } from "./access.js";
import { paginate } from "./pagination.js";
import type { Principal } from "../core/principal.js";
import { iso, type Clock } from "../core/clock.js";

const DEFAULT_TAG_COLOR = "#4F46E5";

const ADMIN_ONLY = "Only an admin of the workspace can do that.";

export function createDirectoryService(
  repos: Repositories,
  now: Clock,
  access: Access,
  voicePrints: Pick<VoicePrints, "forget">,
) {
  /** Members with their groups and the folders they are in, leaving out the private folders the caller is outside of. */
  async function presentMembers(p: Principal, rows: MemberRecord[]) {
    const a = await access.actor(p);
    const groups = await repos.members.groupsOf(rows.map((m) => m.id));
    const all = await repos.members.foldersOf(
      p.workspaceId,
      rows.map((m) => m.userId),
    );
    const folders = new Map(
      [...all].map(([userId, list]) => [userId, list.filter((f) => !a.hiddenFolderIds.has(f.id))]),
    );
    return rows.map((m) => ({
      id: m.id,
      userId: m.userId,
      name: m.name,
      email: m.email,
      profileUrl: m.profileUrl,
      role: m.role,
      createdAt: iso(m.createdAt),
      groups: groups.get(m.id) ?? [],
      folders: folders.get(m.userId) ?? [],
    }));
  }

  /** A member by member id, or by the user's id or email: whichever a person has at hand. */
  async function getMember(p: Principal, id: string) {
    const m =
      (await repos.members.get(p.workspaceId, id)) ??
      (await repos.members.getByUser(p.workspaceId, id)) ??
      (id.includes("@") ? await repos.members.getByEmail(p.workspaceId, id) : null);
    if (!m) throw new NotFoundError(`Member ${id} not found (give a member id, user id or email).`);
    return (await presentMembers(p, [m]))[0];
  }

  return {
    getMember,

    /** A user's membership of a workspace (name, email, role), or null when there is none. */
    async memberOf(workspaceId: string, userId: string) {
      const m = await repos.members.getByUser(workspaceId, userId);
      return m ? { id: m.id, name: m.name, email: m.email, role: m.role } : null;
    },

    async listMembers(p: Principal, q: { limit: number; offset: number; search?: string }) {
      const rows = await repos.members.list(p.workspaceId, { ...q, search: q.search?.trim() || undefined });
      const { page, pagination } = paginate(rows, q.limit, q.offset);
      return { items: await presentMembers(p, page), pagination };
    },

    /** An admin changes a member's role; a workspace always keeps one admin. */
    async setRole(p: Principal, id: string, role: "admin" | "member") {
      if (!workspacePolicy.manage(p)) throw new ForbiddenError(ADMIN_ONLY);
      const m = await repos.members.get(p.workspaceId, id);
      if (!m) throw new NotFoundError(`Member ${id} not found.`);
      if (m.role === "admin" && role === "member" && (await repos.members.countAdmins(p.workspaceId)) <= 1)
        throw new ConflictError("A workspace needs at least one admin: make someone else admin first.");
      await repos.transaction(async () => {
        await repos.members.setRole(p.workspaceId, id, role);
        // The role is read with every request, so a demoted admin's reach ends at once; their
        // keys that carry more than a member may hold are revoked too, rather than kept for
        // a later promotion to bring back unnoticed.
        if (m.role === "admin" && role === "member")
          await repos.apiKeys.revokeBeyond(p.workspaceId, m.userId, scopesForRole("member"), now());
      });
      return getMember(p, id);
    },

    /**
     * An admin removes a member: their API keys in this workspace are revoked, their
     * OAuth grants for it too, and their browser sessions end at once.
     */
    async removeMember(p: Principal, id: string) {
      if (!workspacePolicy.manage(p)) throw new ForbiddenError(ADMIN_ONLY);
      const m = await repos.members.get(p.workspaceId, id);
      if (!m) throw new NotFoundError(`Member ${id} not found.`);
      if (m.userId === p.userId) throw new ConflictError("You cannot remove yourself; ask another admin.");
      if (m.role === "admin" && (await repos.members.countAdmins(p.workspaceId)) <= 1)
        throw new ConflictError("A workspace needs at least one admin.");
      await repos.transaction(async () => {
        await repos.members.remove(p.workspaceId, id);
        await repos.apiKeys.revokeAllOf(p.workspaceId, m.userId, now());
        await repos.oauth.revokeForMember(p.workspaceId, m.userId, now());
        await repos.sessions.deleteForUser(m.userId, null);
        // Their voice, learned from meetings they were named in, is theirs: it goes with them.
        await voicePrints.forget(p.workspaceId, m.email);
      });
    },

    async setMemberGroups(p: Principal, id: string, groupIds: string[]) {
      if (!workspacePolicy.manage(p)) throw new ForbiddenError(ADMIN_ONLY);
      if (!(await repos.members.get(p.workspaceId, id))) throw new NotFoundError(`Member ${id} not found.`);
      const unique = [...new Set(groupIds)];
      const found = new Set((await repos.groups.existing(p.workspaceId, unique)).map((g) => g.id));
      const missing = unique.filter((g) => !found.has(g));
      if (missing.length) throw new BadRequestError(`groupIds: no group ${missing.join(", ")} in this workspace.`);
      await repos.members.setGroups(id, unique);
      return getMember(p, id);
    },

    async listGroups(p: Principal) {
      return (await repos.groups.listWithCounts(p.workspaceId)).map((g) => ({
        id: g.id,
        name: g.name,
        createdAt: iso(g.createdAt),
        memberCount: g.memberCount,
      }));
    },

    async createGroup(p: Principal, input: { name: string }) {
      if (!workspacePolicy.manage(p)) throw new ForbiddenError(ADMIN_ONLY);
      if (await repos.groups.getByName(p.workspaceId, input.name))
        throw new ConflictError(`A group named "${input.name}" already exists.`);
      const row = { id: newId("grp"), workspaceId: p.workspaceId, name: input.name, createdAt: now() };
      await repos.groups.insert(row);
      return { id: row.id, name: row.name, createdAt: iso(row.createdAt), memberCount: 0 };
    },

    async listTags(p: Principal) {
      return (await repos.tags.list(p.workspaceId)).map((t) => ({
        id: t.id,
        name: t.name,
        color: t.color,
        createdAt: iso(t.createdAt),
      }));
    },

    async createTag(p: Principal, input: { name: string; color?: string }) {
      if (await repos.tags.getByName(p.workspaceId, input.name))
        throw new ConflictError(`A tag named "${input.name}" already exists.`);
      const row = {
        id: newId("tag"),
        workspaceId: p.workspaceId,
        name: input.name,
        color: input.color ?? DEFAULT_TAG_COLOR,
        createdAt: now(),
      };
      await repos.tags.insert(row);
      return { id: row.id, name: row.name, color: row.color, createdAt: iso(row.createdAt) };
    },
  };
}

export type DirectoryService = ReturnType<typeof createDirectoryService>;
