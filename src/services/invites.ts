// Workspace invites, in the newer (/v1/invites, with folders) and the older
// (/v1/workspace/invites, with groups) shape. Both see the same pending invites.
import { randomBytes } from "node:crypto";
import type { Repositories } from "../db/repos/index.js";
import type { InviteRow } from "../db/repos/invites.js";
import { newId } from "../core/ids.js";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../core/errors.js";
import { folderPolicy, invitePolicy } from "../core/access.js";
import type { Access } from "./access.js";
import { paginate } from "./pagination.js";
import { hashPassword } from "../core/passwords.js";
import type { Principal } from "../core/principal.js";
import { iso, type Clock } from "../core/clock.js";
import { inviteMail } from "../mail/messages.js";
import type { Outbox } from "./outbox.js";

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

export interface InviteInput {
  email?: string | null;
  role: "admin" | "member";
  isUrlInvite: boolean;
  folderIds?: string[];
  groupIds?: string[];
}

function present(i: InviteRow) {
  return {
    id: i.id,
    email: i.email,
    code: i.code,
    role: i.role,
    expiresAt: iso(i.expiresAt),
    createdAt: iso(i.createdAt),
    isUrlInvite: i.isUrlInvite,
  };
}

/** Checks an existing account's password, throttled as sign-in is. */
export type PasswordCheck = (input: { email: string; password: string; address: string }) => Promise<boolean>;

export function createInviteService(
  repos: Repositories,
  now: Clock,
  access: Access,
  passwordMatches: PasswordCheck,
  mail: { outbox: Outbox; publicUrl: string },
) {
  /** An emailed invite's mail: who invites, to what, and the link that joins. */
  async function sendInvite(p: Principal, row: InviteRow) {
    if (!row.email || row.isUrlInvite || !(await mail.outbox.configured(p.workspaceId))) return;
    const [workspace, inviter] = await Promise.all([repos.workspaces.get(p.workspaceId), repos.users.get(p.userId)]);
    await mail.outbox.send(
      inviteMail({
        to: row.email,
        workspace: workspace?.name ?? "a workspace",
        inviter: inviter?.name || inviter?.email || "Someone",
        role: row.role,
        url: `${mail.publicUrl}/invite/${row.code}`,
      }),
      `invite:${row.id}`,
      p.workspaceId,
    );
  }

  function checkIds(found: { id: string }[], wanted: string[], field: string, noun: string) {
    const have = new Set(found.map((x) => x.id));
    const missing = wanted.filter((id) => !have.has(id));
    if (missing.length) throw new BadRequestError(`${field}: no ${noun} ${missing.join(", ")} in this workspace.`);
  }

  /** Admins see every pending invite; anyone else the ones they sent (an invite's link is a key to the workspace). */
  async function page(p: Principal, limit: number, offset: number) {
    const everyone = invitePolicy.manage(p, { workspaceId: p.workspaceId, ownerUserId: null });
    const rows = await repos.invites.listPending(p.workspaceId, now(), limit, offset, everyone ? undefined : p.userId);
    const { page: items, pagination } = paginate(rows, limit, offset);
    return { items, pagination };
  }

  return {
    async create(p: Principal, input: InviteInput) {
      const email = input.email ?? null;
      if (!email && !input.isUrlInvite) throw new BadRequestError("email: is required unless isUrlInvite is true.");
      if (!invitePolicy.create(p, input.role))
        throw new ForbiddenError("role: a member can invite members; only an admin can invite an admin.");
      const a = await access.actor(p);
      const folderIds = [...new Set(input.folderIds ?? [])];
      const groupIds = [...new Set(input.groupIds ?? [])];
      // Into folders the inviter can see: a private folder they are outside of is "no folder".
      checkIds(
        (await repos.folders.existing(p.workspaceId, folderIds)).filter((f) =>
          folderPolicy.see(a, access.folderFacts(f)),
        ),
        folderIds,
        "folderIds",
        "folder",
      );
      checkIds(await repos.groups.existing(p.workspaceId, groupIds), groupIds, "groupIds", "group");
      return await repos.transaction(async () => {
        const t = now();
        if (email) {
          const user = await repos.users.getByEmail(email);
          if (user && (await repos.members.getByUser(p.workspaceId, user.id)))
            throw new ConflictError(`${email} is already a member of this workspace.`);
          if (await repos.invites.findPendingByEmail(p.workspaceId, email, t))
            throw new ConflictError(`${email} already has a pending invite; delete it first to send a new one.`);
        }
        const row: InviteRow = {
          id: newId("inv"),
          workspaceId: p.workspaceId,
          email,
          code: randomBytes(18).toString("base64url"),
          role: input.role,
          isUrlInvite: input.isUrlInvite,
          invitedByUserId: p.userId,
          expiresAt: t + INVITE_TTL_MS,
          createdAt: t,
          acceptedAt: null,
        };
        await repos.invites.insert(row, { folderIds, groupIds });
        // In the same transaction: the invite and its mail exist together, or neither does.
        await sendInvite(p, row);
        return present(row);
      });
    },

    async listWithFolders(p: Principal, limit: number, offset: number) {
      const { items, pagination } = await page(p, limit, offset);
      const folders = await repos.invites.foldersOf(items.map((i) => i.id));
      return { items: items.map((i) => ({ ...present(i), folders: folders.get(i.id) ?? [] })), pagination };
    },

    async listWithGroups(p: Principal, limit: number, offset: number) {
      const { items, pagination } = await page(p, limit, offset);
      const groups = await repos.invites.groupsOf(items.map((i) => i.id));
      return { items: items.map((i) => ({ ...present(i), groups: groups.get(i.id) ?? [] })), pagination };
    },

    /** A pending invite for the page at /invite/{code}, or null. */
    async pendingByCode(code: string) {
      const invite = await repos.invites.pendingByCode(code, now());
      if (!invite) return null;
      return { invite: present(invite), workspace: (await repos.workspaces.get(invite.workspaceId))! };
    },

    /**
     * Accepts an invite: creates the account (or, for an existing one, checks its
     * password), joins the workspace with the invite's role, groups and folders.
     */
    async accept(code: string, input: { name: string; email: string; password: string; address: string }) {
      const email = input.email.trim().toLowerCase();
      // An existing account's password is checked before the transaction: its failures
      // must count even though the transaction that follows rolls back.
      const existing = await repos.users.getByEmail(email);
      const proven =
        existing !== null &&
        existing.passwordHash !== null &&
        (await passwordMatches({ email, password: input.password, address: input.address }));
      return await repos.transaction(async () => {
        const invite = await repos.invites.pendingByCode(code, now());
        if (!invite) throw new NotFoundError("This invite link has expired or has been used.");
        if (invite.email && invite.email !== email) throw new BadRequestError(`This invite is for ${invite.email}.`);
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new BadRequestError("Enter a valid email address.");
        if (input.password.length < 8) throw new BadRequestError("The password needs at least 8 characters.");
        let user = await repos.users.getByEmail(email);
        if (user) {
          if (!proven || user.id !== existing?.id)
            throw new BadRequestError("An account with this email exists: enter its password to join.");
        } else {
          if (!input.name.trim()) throw new BadRequestError("Enter your name.");
          user = {
            id: newId("usr"),
            email,
            name: input.name.trim().slice(0, 200),
            profileUrl: "",
            passwordHash: hashPassword(input.password),
            timeZone: null,
            createdAt: now(),
          };
          await repos.users.insert(user);
        }
        if (await repos.members.getByUser(invite.workspaceId, user.id))
          throw new ConflictError("You are already a member of this workspace.");
        // An emailed invite is used once; a link invite by everyone given it, until it
        // expires or is deleted.
        if (!invite.isUrlInvite && !(await repos.invites.markAccepted(invite.id, now())))
          throw new NotFoundError("This invite link has been used.");
        const memberId = newId("mem");
        await repos.members.insert({
          id: memberId,
          workspaceId: invite.workspaceId,
          userId: user.id,
          role: invite.role,
          createdAt: now(),
        });
        const groups = (await repos.invites.groupsOf([invite.id])).get(invite.id) ?? [];
        if (groups.length)
          await repos.members.setGroups(
            memberId,
            groups.map((g) => g.id),
          );
        for (const f of (await repos.invites.foldersOf([invite.id])).get(invite.id) ?? [])
          await repos.folders.addMember(f.id, user.id);
        return { userId: user.id, memberId, workspaceId: invite.workspaceId };
      });
    },

    async delete(p: Principal, id: string) {
      const invite = await repos.invites.get(p.workspaceId, id);
      if (
        !invite ||
        !invitePolicy.manage(p, { workspaceId: invite.workspaceId, ownerUserId: invite.invitedByUserId }) ||
        !(await repos.invites.delete(p.workspaceId, id))
      )
        throw new NotFoundError(`Invite ${id} not found.`);
      return { success: true, message: `Invite ${id} deleted.` };
    },
  };
}

export type InviteService = ReturnType<typeof createInviteService>;
