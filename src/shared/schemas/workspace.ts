import { z } from "zod";
import { PLANS, SCOPES } from "../../core/principal.js";
import { HexColor, Iso, MAX_OFFSET, Pagination, queryInt } from "./common.js";

export { PLANS, SCOPES, type ScopeName } from "../../core/principal.js";
export const Plan = z.enum(PLANS);
export const ROLES = ["admin", "member"] as const;
export const Role = z.enum(ROLES);
export const Scope = z.enum(SCOPES);

export const WorkspaceTag = z
  .object({ id: z.string(), name: z.string(), color: z.string(), createdAt: Iso })
  .meta({ id: "WorkspaceTag" });
export const WorkspaceTagList = z.object({ tags: z.array(WorkspaceTag) }).meta({ id: "WorkspaceTagList" });
export const WorkspaceTagCreateBody = z
  .object({ name: z.string().trim().min(1, "is required").max(100), color: HexColor.optional() })
  .strict()
  .meta({ id: "WorkspaceTagCreate" });

export const UserGroup = z
  .object({ id: z.string(), name: z.string(), createdAt: Iso, memberCount: z.number().int() })
  .meta({ id: "UserGroup" });
export const UserGroupList = z.object({ userGroups: z.array(UserGroup) }).meta({ id: "UserGroupList" });
export const UserGroupCreateBody = z
  .object({ name: z.string().trim().min(1, "is required").max(100) })
  .strict()
  .meta({ id: "UserGroupCreate" });

const IdName = z.object({ id: z.string(), name: z.string() });

export const Member = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    profileUrl: z.string(),
    role: z.string(),
    createdAt: Iso,
    groups: z.array(IdName),
    folders: z.array(IdName).meta({ description: "Extension: folders the member belongs to." }),
  })
  .meta({ id: "Member" });
export const MemberEnvelope = z.object({ member: Member }).meta({ id: "MemberEnvelope" });
export const MemberList = z.object({ items: z.array(Member), pagination: Pagination }).meta({ id: "MemberList" });
export const MemberListQuery = z.object({
  limit: queryInt(1, 100, 20),
  offset: queryInt(0, MAX_OFFSET, 0),
  search: z.string().max(200).optional().meta({ description: "Substring of the member's name or email." }),
});
export const MemberUpdateBody = z
  .object({ groupIds: z.array(z.string().min(1).max(200)).max(100) })
  .strict()
  .meta({ id: "MemberUpdate" });

const inviteBase = {
  id: z.string(),
  email: z.string().nullable(),
  code: z.string(),
  role: Role,
  expiresAt: Iso,
  createdAt: Iso,
  isUrlInvite: z.boolean(),
};
export const Invite = z.object(inviteBase).meta({ id: "Invite" });
export const InviteWithFolders = z
  .object({ ...inviteBase, folders: z.array(IdName) })
  .meta({ id: "InviteWithFolders" });
export const InviteWithGroups = z.object({ ...inviteBase, groups: z.array(IdName) }).meta({ id: "InviteWithGroups" });
export const InviteEnvelope = z.object({ invite: Invite }).meta({ id: "InviteEnvelope" });
export const InviteList = z
  .object({ items: z.array(InviteWithFolders), pagination: Pagination })
  .meta({ id: "InviteList" });
export const WorkspaceInviteList = z
  .object({ items: z.array(InviteWithGroups), pagination: Pagination })
  .meta({ id: "WorkspaceInviteList" });

const email = z.string().trim().toLowerCase().pipe(z.email("must be an email address")).pipe(z.string().max(320));

export const InviteCreateBody = z
  .object({
    email: email.nullable().optional(),
    role: Role.default("member"),
    isUrlInvite: z.boolean().default(false),
    folderIds: z.array(z.string().min(1).max(200)).max(100).optional().meta({ description: "Extension." }),
  })
  .strict()
  .meta({ id: "InviteCreate" });

export const WorkspaceInviteCreateBody = z
  .object({
    email,
    role: Role.default("member"),
    isUrlInvite: z.boolean().default(false),
    groupIds: z.array(z.string().min(1).max(200)).max(100).optional(),
  })
  .strict()
  .meta({ id: "WorkspaceInviteCreate" });

export const WorkspaceSettings = z
  .object({
    defaultLanguage: z.string(),
    meetingDefaultPermission: z.enum(["only-me", "workspace-read", "workspace-write"]),
  })
  .catchall(z.unknown());

export const Workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: Iso,
    updatedAt: Iso,
    settings: WorkspaceSettings,
    allowedEmailDomains: z.array(z.string()),
    iconUrl: z.string().nullable(),
  })
  .meta({ id: "Workspace" });
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ""))
  .pipe(
    z
      .string()
      .max(253)
      .regex(
        /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        "must be a domain such as example.com",
      ),
  );

export const WorkspaceUpdateBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    allowedEmailDomains: z.array(domain).max(50).optional(),
    settings: z
      .object({
        defaultLanguage: z
          .string()
          .trim()
          .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a language code such as en or pt-BR")
          .optional(),
        meetingDefaultPermission: WorkspaceSettings.shape.meetingDefaultPermission.optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .meta({ id: "WorkspaceUpdate" });

export const WorkspaceEnvelope = z.object({ workspace: Workspace }).meta({ id: "WorkspaceEnvelope" });

export const Me = z
  .object({
    user: z.object({ id: z.string(), name: z.string(), email: z.string(), profileUrl: z.string() }),
    workspace: z.object({ id: z.string(), name: z.string(), plan: Plan }),
    scopes: z.array(z.string()),
  })
  .meta({ id: "Me" });

export const NotificationSettings = z
  .object({
    noteReady: z
      .boolean()
      .meta({ description: "Email me when a note I recorded or uploaded is ready. Off by default." }),
  })
  .meta({ id: "NotificationSettings" });

export const NotificationSettingsBody = NotificationSettings.partial()
  .strict()
  .meta({ id: "NotificationSettingsUpdate" });
