// A note's share link follows its visibility: a public note has one; any other has
// none, so a link dies with publicity.
import { randomBytes } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";

export async function syncShare(
  repos: Repositories,
  now: Clock,
  noteId: string,
  visibility: NoteRow["visibility"],
): Promise<void> {
  if (visibility === "public")
    await repos.shares.insert({
      noteId,
      token: randomBytes(16).toString("base64url"),
      includeTranscript: true,
      createdAt: now(),
    });
  else await repos.shares.remove(noteId);
}
