// Reads a note's parts (folders, transcript) and presents it in the single-read shape
// that the REST read, MCP and webhook events share.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/repos/notes.js";
import { presentNote } from "../db/repos/note-shape.js";
import { toTimestamp } from "../core/transcript-time.js";
import type { NoteDto } from "../shared/schemas/notes.js";

export async function presentFullNote(repos: Repositories, row: NoteRow, publicUrl: string): Promise<NoteDto> {
  const transcripts = (await repos.notes.segmentsOf(row.id)).map((s) => ({
    speaker: s.speaker,
    text: s.text,
    startTimestamp: toTimestamp(s.startSec),
    endTimestamp: toTimestamp(s.endSec),
  }));
  const share = row.visibility === "public" ? await repos.shares.forNote(row.id) : null;
  return presentNote(row, {
    tags: (await repos.notes.foldersOf([row.id])).get(row.id) ?? [],
    transcripts,
    shareUrl: share ? `${publicUrl}/s/${share.token}` : null,
  });
}
