// A workspace's archive: its folders, every note its admin may read and each note's
// recording, as one gzip'd tar (shared/import/archive-format.ts) streamed as it is
// written, so that a workspace of any size costs the server no memory or disk.
import { createGzip } from "node:zlib";
import type { Readable } from "node:stream";
import { pipeline as pipe } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { workspacePolicy } from "../core/access.js";
import type { Clock } from "../core/clock.js";
import { ForbiddenError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Logger } from "../core/logger.js";
import type { AudioStore } from "../storage/audio-store.js";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_MANIFEST,
  audioEntry,
  noteEntry,
  type ArchiveManifest,
} from "../shared/import/archive-format.js";
import type { NoteService } from "./notes.js";
import { NoteListQuery } from "../shared/schemas/notes.js";
import type { FolderService } from "./folders.js";
import type { WorkspaceService } from "./workspaces.js";

export interface ArchiveDeps {
  notes: NoteService;
  folders: FolderService;
  workspaces: WorkspaceService;
  store: AudioStore;
  now: Clock;
  logger: Logger;
}

export function createWorkspaceArchive(d: ArchiveDeps) {
  /** Every note the caller may read, with where its recording is. */
  async function notesOf(p: Principal) {
    const out: { id: string; audio: { key: string; extension: string; bytes: number } | null }[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await d.notes.list(
        p,
        NoteListQuery.parse({ limit: 100, offset, sortBy: "createdAt", sortOrder: "asc" }),
      );
      for (const n of page.items) {
        const rec = await d.notes.recording(p, n.id);
        const bytes = rec ? await d.store.size(rec.key) : null;
        out.push({ id: n.id, audio: rec && bytes !== null ? { key: rec.key, extension: rec.extension, bytes } : null });
      }
      offset = page.pagination.nextOffset;
    }
    return out;
  }

  return {
    /** The archive, for an admin; refused before a byte is sent. */
    async open(p: Principal): Promise<{ fileName: string; stream: Readable }> {
      if (!workspacePolicy.archive(p)) throw new ForbiddenError("Only an admin of the workspace can take its archive.");
      const workspace = (await d.workspaces.me(p)).workspace;
      const folders = await d.folders.list(p);
      const notes = await notesOf(p);
      const manifest: ArchiveManifest = {
        format: ARCHIVE_FORMAT,
        version: 1,
        exportedAt: new Date(d.now()).toISOString(),
        workspace: { id: workspace.id, name: workspace.name },
        folders: folders.map((f) => ({ id: f.id, name: f.name, isPrivate: Boolean(f.isPrivate) })),
        notes: notes.map((n) => ({ id: n.id, audio: n.audio?.extension ?? null })),
      };
      const pack = tar.pack();
      const write = async () => {
        pack.entry({ name: ARCHIVE_MANIFEST }, JSON.stringify(manifest, null, 2));
        for (const n of notes) {
          // Read now, as it is: a note deleted since the listing is left out.
          const note = await d.notes.get(p, n.id).catch(() => null);
          if (!note) continue;
          pack.entry({ name: noteEntry(n.id), mtime: new Date(note.updatedAt) }, JSON.stringify(note, null, 2));
          if (n.audio) {
            const entry = pack.entry({ name: audioEntry(n.id, n.audio.extension), size: n.audio.bytes });
            await pipeline(d.store.read(n.audio.key), entry);
          }
        }
        pack.finalize();
      };
      write().catch((err) => {
        d.logger.error({ err, workspaceId: p.workspaceId }, "the workspace archive broke off");
        pack.destroy(err as Error);
      });
      const date = manifest.exportedAt.slice(0, 10);
      // pipeline, not pipe: a failure part-way ends the response with an error, not a hang.
      const stream = createGzip();
      pipe(pack, stream, () => {});
      return { fileName: `notula-${workspace.id}-${date}.tar.gz`, stream };
    },
  };
}
