// A folder of markdown kept in step with the notes (`notula notes sync DIR`): one file
// per note, under a directory per folder, named by date, title and id. A manifest in the
// directory (.notula-sync.json) remembers what was written, so that a run again writes
// only the notes whose list entry changed, moves a file when its note was renamed or
// refiled, and removes the file of a note that was deleted. A file edited in the vault
// (an Obsidian user's own lines) is never overwritten or removed: it is kept, and said.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { exportFileName } from "../../../shared/export/index.js";
import { noteToMarkdown } from "../../../shared/export/markdown.js";
import { noteUrl } from "../../../shared/note-links.js";
import { CliError, EXIT } from "../../exit.js";
import { ApiError } from "../../lib/api-client.js";
import type { Deps } from "../../lib/command.js";
import { walk, type ListFlags } from "./filters.js";

export const MANIFEST = ".notula-sync.json";

interface Entry {
  /** The file, relative to the vault. */
  file: string;
  /** The note's list entry when it was written: a change to it (title, folders, updatedAt…) writes the note again. */
  listHash: string;
  /** The file's bytes as written: other bytes mean the file was edited in the vault. */
  fileHash: string;
}

interface Manifest {
  server: string;
  notes: Record<string, Entry>;
}

export type SyncStatus = "written" | "moved" | "removed" | "unchanged" | "kept";

export interface SyncItem {
  noteId: string;
  /** Relative to the vault. */
  file: string;
  status: SyncStatus;
  reason: string | null;
}

export interface SyncOptions {
  dir: string;
  filters: ListFlags;
  /** Participants as [[wiki links]], for a vault with a page per person. */
  wikiLinks: boolean;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** A folder's name as a directory name on any system: no separators, no reserved characters, no leading dot. */
export function folderDirName(name: string): string {
  const safe = name
    .replace(/[/\\:*?"<>|\x00-\x1f]/g, "-")
    .replace(/^[.\s]+/, "")
    .trim();
  return safe || "folder";
}

/** Where a note's file goes: under its first folder by name, or at the vault's top. */
export function vaultPath(note: Pick<NoteDto, "id" | "title" | "createdAt" | "tags">): string {
  const folder = [...note.tags].sort((a, b) => a.name.localeCompare(b.name))[0];
  const name = exportFileName(note, "md");
  return folder ? path.join(folderDirName(folder.name), name) : name;
}

function readManifest(dir: string, server: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) return { server, notes: {} };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
  } catch {
    throw new CliError(`${file} is not valid JSON; delete it to write the folder again from the start.`, EXIT.usage);
  }
  if (manifest.server !== server)
    throw new CliError(
      `${dir} is kept in step with ${manifest.server}, not ${server}: use another folder for this server.`,
      EXIT.usage,
    );
  return manifest;
}

/** Writes a file whole or not at all: an editor watching the vault never reads half a note. */
function writeAtomically(file: string, data: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, file);
}

/** The file's bytes' hash, or null when it is gone. */
const hashOf = (file: string) => (fs.existsSync(file) ? sha256(fs.readFileSync(file)) : null);

/** Removes a directory the vault's files were in once it is empty (never the vault itself). */
function removeIfEmpty(dir: string, root: string) {
  for (let d = dir; d !== root && d.startsWith(root + path.sep); d = path.dirname(d)) {
    try {
      fs.rmdirSync(d);
    } catch {
      return;
    }
  }
}

/** One pass: every note the filters match written if it changed, and the files of deleted notes removed. */
export async function syncVault(deps: Pick<Deps, "api" | "server">, opts: SyncOptions): Promise<SyncItem[]> {
  const root = path.resolve(opts.dir);
  fs.mkdirSync(root, { recursive: true });
  const manifest = readManifest(root, deps.server);
  const items: SyncItem[] = [];
  const seen = new Set<string>();
  const save = () => writeAtomically(path.join(root, MANIFEST), JSON.stringify(manifest, null, 2) + "\n");

  for await (const page of walk(deps, { ...opts.filters, sort: "createdAt", order: "asc" })) {
    for (const listed of page) {
      seen.add(listed.id);
      const listHash = sha256(JSON.stringify(listed));
      const file = vaultPath(listed);
      const before = manifest.notes[listed.id];
      const onDisk = before && hashOf(path.join(root, before.file));
      if (before && onDisk !== null && onDisk !== before.fileHash) {
        items.push({ noteId: listed.id, file: before.file, status: "kept", reason: "edited in the folder" });
        continue;
      }
      if (before && onDisk && before.listHash === listHash && before.file === file) {
        items.push({ noteId: listed.id, file, status: "unchanged", reason: null });
        continue;
      }
      const target = path.join(root, file);
      if (!before && fs.existsSync(target)) {
        items.push({ noteId: listed.id, file, status: "kept", reason: "a file of the same name is there already" });
        continue;
      }
      const { note } = await deps.api.call("getNote", { params: { id: listed.id } });
      const text = noteToMarkdown(note, { url: noteUrl(deps.server, note.id), wikiLinks: opts.wikiLinks });
      writeAtomically(target, text);
      const moved = before !== undefined && before.file !== file;
      if (moved) {
        fs.rmSync(path.join(root, before.file), { force: true });
        removeIfEmpty(path.dirname(path.join(root, before.file)), root);
      }
      manifest.notes[listed.id] = { file, listHash, fileHash: sha256(text) };
      items.push({ noteId: listed.id, file, status: moved ? "moved" : "written", reason: moved ? before.file : null });
      save();
    }
  }

  // A note not listed was deleted, or the list moved under the walk (a note made or
  // deleted meanwhile shifts its pages): only one the server says is gone is removed.
  for (const [id, entry] of Object.entries(manifest.notes)) {
    if (seen.has(id) || (await exists(deps, id))) continue;
    const file = path.join(root, entry.file);
    const onDisk = hashOf(file);
    if (onDisk !== null && onDisk !== entry.fileHash) {
      items.push({
        noteId: id,
        file: entry.file,
        status: "kept",
        reason: "the note was deleted; edited in the folder",
      });
      continue;
    }
    fs.rmSync(file, { force: true });
    removeIfEmpty(path.dirname(file), root);
    delete manifest.notes[id];
    items.push({ noteId: id, file: entry.file, status: "removed", reason: null });
  }
  save();
  return items;
}

async function exists(deps: Pick<Deps, "api">, id: string): Promise<boolean> {
  try {
    await deps.api.call("getNote", { params: { id } });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}
