import { z } from "zod";
import { HexColor, Iso } from "./common.js";

export const Folder = z
  .object({
    id: z.string(),
    name: z.string(),
    icon: z.string().nullable(),
    parentFolderId: z.string().nullable(),
    createdAt: Iso,
  })
  .meta({ id: "Folder" });

export const FolderListItem = Folder.extend({
  memberCount: z.number().int(),
  isPrivate: z.boolean().meta({ description: "Extension: only the folder's members see it and its notes." }),
  templateId: z.string().nullable().meta({
    description: "Extension: the template notes filed here are enhanced with; null for the workspace default.",
  }),
  mayManage: z.boolean().meta({
    description:
      "Extension: whether the caller may rename, move, make private or shared, and delete it (its owner and admins); anyone who sees it files notes in it.",
  }),
}).meta({ id: "FolderListItem" });

/** An id of another object a folder points at (its parent, its template), or null for none. */
const FolderRef = z.string().max(200).nullable().optional();

export const FolderCreateBody = z
  .object({
    name: z.string().trim().min(1, "is required").max(200),
    ownerUserId: z.string().min(1, "is required").max(200),
    icon: z.string().max(100).nullable().optional(),
    color: HexColor.optional(),
    isPrivate: z.boolean().optional(),
    parentFolderId: FolderRef,
    templateId: FolderRef.meta({ description: "Extension: the template for notes filed here." }),
  })
  .strict()
  .meta({ id: "FolderCreate" });

export const FolderUpdateBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    icon: z.string().max(100).nullable().optional(),
    color: HexColor.optional(),
    isPrivate: z.boolean().optional().meta({ description: "Only the folder's owner or an admin may change it." }),
    ownerUserId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Gives the folder to another member (its owner or an admin)." }),
    parentFolderId: FolderRef,
    templateId: FolderRef.meta({
      description: "Extension: the template for notes filed here; null for the workspace default.",
    }),
  })
  .strict()
  .meta({ id: "FolderUpdate" });

export const FolderMember = z
  .object({ userId: z.string(), name: z.string(), email: z.string() })
  .meta({ id: "FolderMember" });
export const FolderMembers = z.object({ members: z.array(FolderMember) }).meta({ id: "FolderMembers" });
export const FolderMemberParams = z.object({
  id: z.string().min(1).max(200),
  userId: z.string().min(1).max(200),
});

export const FolderEnvelope = z.object({ folder: Folder }).meta({ id: "FolderEnvelope" });
export const FolderItemEnvelope = z.object({ folder: FolderListItem }).meta({ id: "FolderItemEnvelope" });
export const FolderList = z.object({ folders: z.array(FolderListItem) }).meta({ id: "FolderList" });
