// The facts the access policy (src/core/access.ts) decides on, loaded for a request:
// the caller as an Actor (role and the private folders they are outside of), and a
// note's or folder's facts. Services ask `can…` and `require…` here; the rules
// themselves live only in the policy.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { FolderRow } from "../db/repos/folders.js";
import { noteView, type Actor, type FolderFacts, type NoteFacts, type NoteView } from "../core/access.js";
import { ForbiddenError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";

export function createAccess(repos: Repositories) {
  async function actor(p: Principal): Promise<Actor> {
    return {
      workspaceId: p.workspaceId,
      userId: p.userId,
      role: p.role,
      hiddenFolderIds: new Set(p.hiddenFolders ?? (await repos.folders.hiddenFrom(p.workspaceId, p.userId))),
    };
  }

  return {
    actor,

    /** The filter every note query of this caller applies. */
    async view(p: Principal): Promise<NoteView> {
      return noteView(await actor(p));
    },

    /** A note's facts: who made it, its visibility and its folders. */
    async noteFacts(row: Pick<NoteRow, "id" | "workspaceId" | "createdBy" | "visibility">): Promise<NoteFacts> {
      const folders = (await repos.notes.foldersOf([row.id])).get(row.id) ?? [];
      return {
        workspaceId: row.workspaceId,
        createdBy: row.createdBy,
        visibility: row.visibility,
        folderIds: folders.map((f) => f.id),
      };
    },

    folderFacts(row: Pick<FolderRow, "id" | "workspaceId" | "ownerUserId" | "isPrivate">): FolderFacts {
      return { id: row.id, workspaceId: row.workspaceId, ownerUserId: row.ownerUserId, isPrivate: row.isPrivate };
    },

    /** Throws 403 with `message` unless `allowed`: for what the caller can see but not do. */
    require(allowed: boolean, message: string): void {
      if (!allowed) throw new ForbiddenError(message);
    },
  };
}

export type Access = ReturnType<typeof createAccess>;
