// Files made into notes by the server itself: the watched folder's, and those dropped on
// the web app's import page. A transcript or note file (VTT, SRT, Otter text, markdown)
// becomes a note as POST /v1/notes would make it, with the same checks; a recording of
// the same name beside it is attached; a recording alone is transcribed like an upload.
// A file made into a note before (the same bytes) is skipped, naming that note.
import { createHash } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { ConflictError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Services } from "../services/index.js";
import { NoteCreateBody } from "../shared/schemas/notes.js";
import { readImport } from "../shared/import/transcript-files.js";
import { isRecording, isTranscript, takesRecording } from "../shared/import/file-kinds.js";
import { decodeText, refuseOversize } from "../shared/import/decode.js";

/** A file to import, wherever it is (a path on disk, a part of a form). */
export interface IncomingFile {
  name: string;
  size: number;
  modified: Date;
  bytes(): Promise<Buffer>;
  stream(): Readable;
  /** Where its length can be read from (a path music-metadata opens), when it is on disk. */
  path?: string;
}

export type Outcome =
  | { file: string; status: "imported"; noteId: string; recording: string | null }
  | { file: string; status: "skipped"; noteId: string | null; reason: string }
  | { file: string; status: "failed"; reason: string };

const extension = (f: string) => path.extname(f).slice(1).toLowerCase();
const stemOf = (f: string) => path.basename(f, path.extname(f));

/**
 * The notes some files make, by name: a transcript with the recording of its name
 * beside it is one note (a markdown note is what someone wrote, not a transcript, so a
 * transcript of the name wins); anything else is a note each.
 */
export function notesOf(names: string[]): { main: string; recording: string | null }[] {
  const byStem = new Map<string, string[]>();
  for (const name of names) byStem.set(stemOf(name), [...(byStem.get(stemOf(name)) ?? []), name]);
  return [...byStem.values()].flatMap((group) => {
    const transcript = group.find(takesRecording) ?? group.find(isTranscript);
    const recording = transcript ? (group.find(isRecording) ?? null) : null;
    return [
      ...(transcript ? [{ main: transcript, recording }] : []),
      ...group.filter((n) => n !== transcript && n !== recording).map((main) => ({ main, recording: null })),
    ];
  });
}

export function createFileImporter(services: Services) {
  async function keepRecording(p: Principal, file: IncomingFile): Promise<string> {
    let duration = 1;
    try {
      const mm = await import("music-metadata");
      const format = file.path
        ? (await mm.parseFile(file.path, { duration: true, skipCovers: true })).format
        : (await mm.parseBuffer(await file.bytes(), undefined, { duration: true, skipCovers: true })).format;
      duration = format.duration ?? 1;
    } catch {
      // Measured when it is decoded: the declared length is only an estimate.
    }
    const kept = await services.uploads.keepFile(p, {
      fileExtension: extension(file.name),
      duration: Math.max(1, duration),
      body: file.stream(),
    });
    return kept.audioUrl;
  }

  /** One note from a file (and the recording beside it), or why not. */
  async function importFile(
    p: Principal,
    file: IncomingFile,
    recording: IncomingFile | null,
    opts: { folderIds?: string[] } = {},
  ): Promise<Outcome> {
    const name = file.name;
    try {
      if (isRecording(name)) {
        const audioUrl = await keepRecording(p, file);
        const folderId = opts.folderIds?.[0];
        const { noteId } = await services.uploads.createNoteFromAudio(p, { audioUrl, title: stemOf(name), folderId });
        return { file: name, status: "imported", noteId, recording: null };
      }
      refuseOversize(name, file.size);
      const bytes = await file.bytes();
      const read = readImport(name, decodeText(name, bytes), file.modified);
      // Checked as POST /v1/notes checks what the command line sends: the same limits.
      const parsed = NoteCreateBody.safeParse({
        ...read.body,
        ...(opts.folderIds?.length ? { folderIds: opts.folderIds } : {}),
        sourceHash: createHash("sha256").update(bytes).digest("hex"),
      });
      if (!parsed.success)
        throw new Error(`${name}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      const input = parsed.data;
      const note = recording
        ? await services.uploads.createNoteWithRecording(p, { ...input, audioUrl: await keepRecording(p, recording) })
        : await services.notes.create(p, input);
      return { file: name, status: "imported", noteId: note.id, recording: recording?.name ?? null };
    } catch (err) {
      if (err instanceof ConflictError && err.noteId)
        return { file: name, status: "skipped", noteId: err.noteId, reason: err.message };
      return { file: name, status: "failed", reason: (err as Error).message };
    }
  }

  return { importFile };
}
