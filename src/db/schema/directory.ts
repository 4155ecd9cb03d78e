// How a workspace organizes itself: folders, tags, groups and invites.
import { idColumn, createdAtColumn, updatedAtColumn } from "./columns.js";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members, userColumn, workspaceColumn } from "./accounts.js";

export const folders = sqliteTable(
  "folders",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    name: text("name").notNull(),
    icon: text("icon"),
    color: text("color").notNull(),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull(),
    parentFolderId: text("parent_folder_id"),
    ownerUserId: text("owner_user_id").notNull(),
    /** The template a note filed here is enhanced with (before the workspace default). */
    templateId: text("template_id"),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index("folders_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const folderMembers = sqliteTable(
  "folder_members",
  {
    folderId: text("folder_id")
      .notNull()
      .references(() => folders.id, { onDelete: "cascade" }),
    userId: userColumn(),
  },
  (t) => [primaryKey({ columns: [t.folderId, t.userId] }), index("folder_members_user_idx").on(t.userId)],
);

export const tags = sqliteTable(
  "tags",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex("tags_workspace_name_uq").on(t.workspaceId, t.name)],
);

export const userGroups = sqliteTable(
  "user_groups",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    name: text("name").notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex("user_groups_workspace_name_uq").on(t.workspaceId, t.name)],
);

export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.memberId] }), index("group_members_member_idx").on(t.memberId)],
);

export const invites = sqliteTable(
  "invites",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    email: text("email"),
    code: text("code").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    isUrlInvite: integer("is_url_invite", { mode: "boolean" }).notNull(),
    invitedByUserId: text("invited_by_user_id"),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAtColumn(),
    acceptedAt: integer("accepted_at"),
  },
  (t) => [
    uniqueIndex("invites_code_uq").on(t.code),
    index("invites_workspace_pending_idx").on(t.workspaceId, t.acceptedAt, t.createdAt),
  ],
);

export const inviteGroups = sqliteTable(
  "invite_groups",
  {
    inviteId: text("invite_id")
      .notNull()
      .references(() => invites.id, { onDelete: "cascade" }),
    groupId: text("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.inviteId, t.groupId] })],
);

export const inviteFolders = sqliteTable(
  "invite_folders",
  {
    inviteId: text("invite_id")
      .notNull()
      .references(() => invites.id, { onDelete: "cascade" }),
    folderId: text("folder_id")
      .notNull()
      .references(() => folders.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.inviteId, t.folderId] })],
);
