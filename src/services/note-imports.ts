// A note imported from a file is made once per workspace: the file's SHA-256 is kept on
// the note, and a second note from the same file is refused, naming the first. The
// unique index on (workspace, hash) settles two imports racing.
import { ConflictError } from "../core/errors.js";
import type { Repositories } from "../db/repos/index.js";

export async function importedOnce(repos: Repositories, workspaceId: string, sourceHash: string | undefined) {
  if (!sourceHash) return;
  const first = await repos.notes.bySourceHash(workspaceId, sourceHash);
  if (first)
    throw new ConflictError(`This file was imported already, as note ${first.id} ("${first.title}").`, first.id);
}
