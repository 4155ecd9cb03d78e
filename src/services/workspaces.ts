// Workspaces, their users and memberships: bootstrap of an empty data dir and the
// `notula admin` operations, plus the workspace read of the API.
import type { Repositories } from "../db/repos/index.js";
import { newId } from "../core/ids.js";
import { SCOPES, type ScopeName } from "../shared/schemas/workspace.js";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../core/errors.js";
import type { ApiKeyService } from "./api-keys.js";
import { hashPassword } from "../core/passwords.js";
import type { PlanName, Principal } from "../core/principal.js";
import { workspacePolicy } from "../core/access.js";
import { iso, type Clock } from "../core/clock.js";

type Plan = PlanName;

interface WorkspaceSettings {
  defaultLanguage: string;
  meetingDefaultPermission: "only-me" | "workspace-read" | "workspace-write";
  [key: string]: string | number | boolean | null;
}
const DEFAULT_SETTINGS: WorkspaceSettings = { defaultLanguage: "en", meetingDefaultPermission: "workspace-read" };

export interface WorkspacePatch {
  name?: string;
  allowedEmailDomains?: string[];
  settings?: Partial<Pick<WorkspaceSettings, "defaultLanguage" | "meetingDefaultPermission">>;
}

export function createWorkspaceService(repos: Repositories, apiKeys: ApiKeyService, now: Clock) {
  async function presentWorkspace(id: string) {
    const w = await repos.workspaces.get(id);
    if (!w) throw new NotFoundError(`Workspace ${id} not found.`);
    return {
      id: w.id,
      name: w.name,
      createdAt: iso(w.createdAt),
      updatedAt: iso(w.updatedAt),
      settings: { ...DEFAULT_SETTINGS, ...w.settings } as WorkspaceSettings,
      allowedEmailDomains: w.allowedEmailDomains,
      iconUrl: w.iconUrl,
    };
  }

  async function createUser(input: { email: string; name: string; password?: string }) {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new BadRequestError(`"${input.email}" is not an email address.`);
    const existing = await repos.users.getByEmail(email);
    if (existing) return existing;
    const row = {
      id: newId("usr"),
      email,
      name: input.name,
      profileUrl: "",
      passwordHash: input.password ? hashPassword(input.password) : null,
      createdAt: now(),
    };
    await repos.users.insert(row);
    return row;
  }

  return {
    get: presentWorkspace,

    /** Name, allowed email domains and note defaults; the admins' settings page and PATCH /v1/workspace. */
    async update(p: Principal, patch: WorkspacePatch) {
      if (!workspacePolicy.manage(p))
        throw new ForbiddenError("Only an admin of the workspace can change its name, email domains and defaults.");
      const w = await repos.workspaces.get(p.workspaceId);
      if (!w) throw new NotFoundError(`Workspace ${p.workspaceId} not found.`);
      const fields: Parameters<typeof repos.workspaces.update>[1] = {};
      if (patch.name !== undefined) fields.name = patch.name.trim();
      if (patch.allowedEmailDomains !== undefined)
        fields.allowedEmailDomains = [
          ...new Set(patch.allowedEmailDomains.map((d) => d.trim().toLowerCase().replace(/^@/, ""))),
        ];
      if (patch.settings) fields.settings = { ...w.settings, ...patch.settings };
      await repos.workspaces.update(w.id, fields, now());
      return presentWorkspace(w.id);
    },

    /** A verified identity with no account joins, as a member, every workspace admitting its domain. */
    async joinByAllowedDomain(email: string, name: string) {
      const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
      const admitting = (await repos.workspaces.list()).filter((w) => w.allowedEmailDomains.includes(domain));
      if (!admitting.length) return null;
      return await repos.transaction(async () => {
        const user = await createUser({ email, name });
        for (const w of admitting)
          if (!(await repos.members.getByUser(w.id, user.id)))
            await repos.members.insert({
              id: newId("mem"),
              workspaceId: w.id,
              userId: user.id,
              role: "member",
              createdAt: now(),
            });
        return user;
      });
    },

    /** A new workspace with its admin user and an all-scope admin key (shown once). */
    async create(input: { name: string; plan?: Plan; adminEmail?: string; adminName?: string }) {
      return await repos.transaction(async () => {
        const t = now();
        const workspace = {
          id: newId("ws"),
          name: input.name,
          plan: input.plan ?? "enterprise",
          settings: { ...DEFAULT_SETTINGS },
          allowedEmailDomains: [],
          iconUrl: null,
          createdAt: t,
          updatedAt: t,
        };
        await repos.workspaces.insert(workspace);
        const email =
          input.adminEmail ??
          `admin+${workspace.id
            .slice(3)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, "")}@notula.local`;
        const user = await createUser({ email, name: input.adminName ?? "Admin" });
        await repos.members.insert({
          id: newId("mem"),
          workspaceId: workspace.id,
          userId: user.id,
          role: "admin",
          createdAt: t,
        });
        const key = await apiKeys.create({
          workspaceId: workspace.id,
          userId: user.id,
          name: "admin",
          scopes: [...SCOPES] as ScopeName[],
        });
        return {
          workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, createdAt: iso(t) },
          user: { id: user.id, email: user.email, name: user.name },
          key: key.key,
          keyId: key.id,
        };
      });
    },

    async isEmpty(): Promise<boolean> {
      return (await repos.workspaces.count()) === 0;
    },

    async list() {
      return (await repos.workspaces.list()).map((w) => ({
        id: w.id,
        name: w.name,
        plan: w.plan,
        createdAt: iso(w.createdAt),
      }));
    },

    async setPlan(workspaceId: string, plan: Plan) {
      if (!(await repos.workspaces.setPlan(workspaceId, plan, now())))
        throw new NotFoundError(`Workspace ${workspaceId} not found.`);
    },

    async addUser(input: {
      workspaceId: string;
      email: string;
      name: string;
      password?: string;
      role?: "admin" | "member";
    }) {
      return await repos.transaction(async () => {
        if (!(await repos.workspaces.get(input.workspaceId)))
          throw new NotFoundError(`Workspace ${input.workspaceId} not found.`);
        const user = await createUser(input);
        if (await repos.members.getByUser(input.workspaceId, user.id))
          throw new ConflictError(`${user.email} is already a member of workspace ${input.workspaceId}.`);
        const memberId = newId("mem");
        await repos.members.insert({
          id: memberId,
          workspaceId: input.workspaceId,
          userId: user.id,
          role: input.role ?? "member",
          createdAt: now(),
        });
        return {
          user: { id: user.id, email: user.email, name: user.name },
          member: { id: memberId, role: input.role ?? "member" },
        };
      });
    },

    /** The admin whose identity a key gets when none is named. */
    async userIdByEmail(email: string): Promise<string> {
      const user = await repos.users.getByEmail(email.trim().toLowerCase());
      if (!user) throw new NotFoundError(`No user with the email ${email}.`);
      return user.id;
    },

    async planOf(workspaceId: string): Promise<Plan> {
      const w = await repos.workspaces.get(workspaceId);
      if (!w) throw new NotFoundError(`Workspace ${workspaceId} not found.`);
      return w.plan;
    },

    async defaultUser(workspaceId: string): Promise<string> {
      const admin = await repos.members.firstAdmin(workspaceId);
      if (!admin) throw new NotFoundError(`Workspace ${workspaceId} has no admin.`);
      return admin.userId;
    },

    async me(p: Principal) {
      const user = await repos.users.get(p.userId);
      const workspace = await repos.workspaces.get(p.workspaceId);
      if (!user || !workspace) throw new NotFoundError("The user of this API key no longer exists.");
      return {
        user: { id: user.id, name: user.name, email: user.email, profileUrl: user.profileUrl },
        workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan },
        scopes: [...p.scopes],
      };
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
