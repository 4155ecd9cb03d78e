// API keys: random, prefixed `ntl_`, shown once, stored only as a SHA-256 hash.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Repositories } from "../db/repos/index.js";
import type { ApiKeyRow } from "../db/repos/api-keys.js";
import { newId } from "../core/ids.js";
import { defaultVisibility, scopesForRole } from "../core/access.js";
import { SCOPES, type ScopeName } from "../core/principal.js";
import { BadRequestError, NotFoundError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";

export const KEY_PREFIX = "ntl_";
const KEY_SHAPE = /^ntl_[A-Za-z0-9_-]{43}$/;

export const hashKey = (key: string): string => createHash("sha256").update(key).digest("hex");

export function parseScopes(list: string | string[]): ScopeName[] {
  const raw = (Array.isArray(list) ? list : list.split(",")).map((s) => s.trim()).filter(Boolean);
  const unknown = raw.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new BadRequestError(`Unknown scope ${unknown.join(", ")}; use ${SCOPES.join(", ")}.`);
  if (!raw.length) throw new BadRequestError(`At least one scope is needed: ${SCOPES.join(", ")}.`);
  return [...new Set(raw)] as ScopeName[];
}

function present(rows: ApiKeyRow[]) {
  return rows.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.displayPrefix,
    scopes: k.scopes,
    userId: k.userId,
    createdAt: new Date(k.createdAt).toISOString(),
    lastUsedAt: k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : null,
    revoked: k.revokedAt !== null,
  }));
}

/** "Last used" is kept to the minute: one write per key per minute, not one per request. */
const TOUCH_EVERY_MS = 60_000;

export function createApiKeyService(repos: Repositories, now: Clock) {
  const touched = new Map<string, number>();
  async function touch(id: string) {
    const t = now();
    if (t - (touched.get(id) ?? 0) < TOUCH_EVERY_MS) return;
    if (touched.size > 10_000) touched.clear();
    touched.set(id, t);
    await repos.apiKeys.touch(id, t);
  }
  return {
    async create(input: { workspaceId: string; userId: string; name: string; scopes: ScopeName[] }) {
      if (!(await repos.workspaces.get(input.workspaceId)))
        throw new NotFoundError(`Workspace ${input.workspaceId} not found.`);
      if (!(await repos.members.getByUser(input.workspaceId, input.userId)))
        throw new NotFoundError(`User ${input.userId} is not a member of workspace ${input.workspaceId}.`);
      const key = KEY_PREFIX + randomBytes(32).toString("base64url");
      const id = newId("key");
      await repos.apiKeys.insert({
        id,
        workspaceId: input.workspaceId,
        userId: input.userId,
        name: input.name,
        displayPrefix: key.slice(0, 10),
        keyHash: hashKey(key),
        scopes: input.scopes,
        createdAt: now(),
        lastUsedAt: null,
        revokedAt: null,
      });
      return { id, key, scopes: input.scopes, name: input.name, workspaceId: input.workspaceId, userId: input.userId };
    },

    /**
     * A member's own key, made in the developer settings: never more than the member's
     * rights (managing members and invites, the users scope, is for admins).
     */
    createOwn(p: Principal, role: "admin" | "member", input: { name: string; scopes: ScopeName[] }) {
      const name = input.name.trim();
      if (!name || name.length > 100) throw new BadRequestError("The key needs a name of 1 to 100 characters.");
      if (!input.scopes.length) throw new BadRequestError(`Choose at least one scope: ${SCOPES.join(", ")}.`);
      const allowed = scopesForRole(role);
      const beyond = input.scopes.filter((s) => !allowed.includes(s));
      if (beyond.length) throw new BadRequestError(`A ${role} cannot give a key the ${beyond.join(", ")} scope.`);
      return this.create({ workspaceId: p.workspaceId, userId: p.userId, name, scopes: [...new Set(input.scopes)] });
    },

    /** The caller's own keys in this workspace, newest first (never the keys themselves). */
    async listOwn(p: Principal) {
      return present(await repos.apiKeys.listForUser(p.workspaceId, p.userId)).reverse();
    },

    async revokeOwn(p: Principal, id: string): Promise<void> {
      if (!(await repos.apiKeys.revokeOwn(p.workspaceId, p.userId, id, now())))
        throw new NotFoundError(`Key ${id} not found.`);
    },

    /** The key a request was made with, revoked: `notula logout`. */
    async revokePresented(p: Principal): Promise<void> {
      if (!(await repos.apiKeys.revokeOwn(p.workspaceId, p.userId, p.keyId, now())))
        throw new NotFoundError("This key is not an API key of yours.");
    },

    async list(workspaceId: string) {
      return present(await repos.apiKeys.listForWorkspace(workspaceId));
    },

    async revoke(id: string): Promise<boolean> {
      return await repos.apiKeys.revoke(id, now());
    },

    /** The principal behind a presented key, or null for anything that is not a live key. */
    async authenticate(presented: string): Promise<Principal | null> {
      if (!KEY_SHAPE.test(presented)) return null;
      const hash = hashKey(presented);
      const row = await repos.apiKeys.findByHashWithPlan(hash);
      // The lookup is by hash; the explicit constant-time check guards against any
      // future change that would fetch by prefix instead.
      if (!row || !timingSafeEqual(Buffer.from(row.keyHash), Buffer.from(hash)) || row.revokedAt !== null) return null;
      // A key speaks for a member: once its holder has left the workspace, it speaks for nobody.
      if (row.role === null) return null;
      await touch(row.id);
      return {
        workspaceId: row.workspaceId,
        userId: row.userId,
        keyId: row.id,
        scopes: new Set(row.scopes as ScopeName[]),
        plan: row.plan,
        role: row.role,
        hiddenFolders: row.hiddenFolderIds,
        newNoteVisibility: defaultVisibility(row.workspaceSettings),
      };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
