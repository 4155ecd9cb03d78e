// A workspace archive (`notula archive`) taken back in by `notula import`: read as a
// stream, each entry checked against the names an archive holds (anything else, such as
// "../x", refuses the whole archive before a note is made), recordings kept in a
// temporary folder under names of our own. Then its folders are made (or found by name)
// and each note is made as it was, its recording attached; the note's own bytes are its
// hash, so a run again makes nothing twice.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { VISIBILITIES } from "../../../shared/vocabulary.js";
import {
  ARCHIVE_MANIFEST,
  ArchiveManifest,
  entryKind,
  type ArchiveManifest as Manifest,
} from "../../../shared/import/archive-format.js";
import type { NoteCreateRequest } from "../../../shared/import/transcript-files.js";
import { MAX_TRANSCRIPT_FILE_BYTES } from "../../../shared/import/decode.js";
import type { Deps } from "../../lib/command.js";

export const isArchive = (file: string) => /\.(tar\.gz|tgz)$/i.test(file);

export interface Unpacked {
  manifest: Manifest;
  /** Each note's JSON, as its bytes. */
  notes: Map<string, Buffer>;
  /** Each recording, in `dir`. */
  audio: Map<string, string>;
  dir: string;
}

/** Reads the archive whole, or refuses it naming why; nothing is written outside a new temporary folder. */
export async function unpack(file: string): Promise<Unpacked> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-archive-"));
  const notes = new Map<string, Buffer>();
  const audio = new Map<string, string>();
  let manifest: Manifest | null = null;
  const name = path.basename(file);
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      const kind = entryKind(entry.header.name);
      if (!kind || entry.header.type !== "file")
        throw new Error(`${name} holds "${entry.header.name}", which no notula archive holds: refused whole.`);
      if (kind.kind === "audio") {
        const to = path.join(dir, `${kind.noteId}${path.extname(entry.header.name)}`);
        await pipeline(entry, fs.createWriteStream(to));
        audio.set(kind.noteId, to);
        continue;
      }
      if ((entry.header.size ?? 0) > MAX_TRANSCRIPT_FILE_BYTES)
        throw new Error(`${name}: ${entry.header.name} is larger than any note.`);
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      const bytes = Buffer.concat(chunks);
      if (kind.kind === "note") notes.set(kind.noteId, bytes);
      else {
        const parsed = ArchiveManifest.safeParse(JSON.parse(bytes.toString("utf8")));
        if (!parsed.success) throw new Error(`${name}: its ${ARCHIVE_MANIFEST} is not a notula archive's.`);
        manifest = parsed.data;
      }
    }
  })();
  try {
    await Promise.all([pipeline(fs.createReadStream(file), createGunzip(), extract), reading]);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    const message = (err as Error).message;
    throw new Error(
      /refused|archive|note/.test(message) ? message : `${name} cannot be read as an archive (${message}).`,
    );
  }
  if (!manifest) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${name} has no ${ARCHIVE_MANIFEST}: it is not a notula archive.`);
  }
  return { manifest, notes, audio, dir };
}

/** The archive's folders on this server: found by name, else made (as the caller's own). */
export async function foldersFor(deps: Deps, manifest: Manifest, dryRun: boolean): Promise<Map<string, string>> {
  const here = (await deps.api.call("listFolders")).folders;
  const me = (await deps.api.call("getMe")).user;
  const ids = new Map<string, string>();
  for (const f of manifest.folders) {
    const found = here.find((h) => h.name === f.name);
    if (found) ids.set(f.id, found.id);
    else if (!dryRun) {
      const body = { name: f.name, ownerUserId: me.id, ...(f.isPrivate ? { isPrivate: true } : {}) };
      ids.set(f.id, (await deps.api.call("createFolder", { body })).folder.id);
    }
  }
  return ids;
}

/** What POST /v1/notes is sent for a note of the archive: the note as it was. */
export function noteBody(bytes: Buffer, folderIds: Map<string, string>): NoteCreateRequest & { sourceHash: string } {
  const n = JSON.parse(bytes.toString("utf8")) as NoteDto;
  return {
    title: n.title,
    createdAt: n.createdAt,
    kind: n.kind,
    ...((VISIBILITIES as readonly string[]).includes(n.visibility) ? { visibility: n.visibility } : {}),
    userWrittenNote: n.userWrittenNote,
    summary: n.summary,
    enhancedNote: n.enhancedNote,
    transcripts: n.transcripts.map((t) => ({
      speaker: t.speaker,
      text: t.text,
      startTimestamp: t.startTimestamp,
      endTimestamp: t.endTimestamp,
    })),
    participants: n.participants.map((p) => ({ name: p.name, email: p.email })),
    folderIds: n.tags.flatMap((t) => (folderIds.has(t.id) ? [folderIds.get(t.id)!] : [])),
    totalDurationSec: n.totalDurationSec,
    inputLanguage: n.inputLanguage,
    meetingApp: n.meetingApp,
    sourceHash: createHash("sha256").update(bytes).digest("hex"),
  };
}
