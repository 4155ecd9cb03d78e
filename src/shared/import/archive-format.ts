// A workspace archive (GET /v1/workspace/archive, `notula workspace archive`): a gzip'd
// tar of a manifest, each note as its JSON and each recording, that `notula import`
// on another server takes back in whole. Every name in it is one of these shapes, so a
// reader accepts nothing else (no path outside the archive's own: no zip-slip).
import { z } from "zod";

export const ARCHIVE_FORMAT = "notula-archive";
export const ARCHIVE_MANIFEST = "notula-archive.json";

const id = z.string().regex(/^[\w-]{1,100}$/);

export const ArchiveManifest = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(1),
  exportedAt: z.string(),
  workspace: z.object({ id: z.string(), name: z.string() }),
  folders: z.array(z.object({ id, name: z.string(), isPrivate: z.boolean().optional() })),
  notes: z.array(
    z.object({
      id,
      audio: z
        .string()
        .regex(/^[a-z0-9]{2,5}$/)
        .nullable(),
    }),
  ),
});
export type ArchiveManifest = z.infer<typeof ArchiveManifest>;

export const noteEntry = (noteId: string) => `notes/${noteId}.json`;
export const audioEntry = (noteId: string, extension: string) => `audio/${noteId}.${extension}`;

/** What an entry's name is, or null for a name no archive holds (refused). */
export function entryKind(name: string): { kind: "manifest" } | { kind: "note" | "audio"; noteId: string } | null {
  if (name === ARCHIVE_MANIFEST) return { kind: "manifest" };
  const m = /^(notes|audio)\/([\w-]{1,100})\.(json|[a-z0-9]{2,5})$/.exec(name);
  if (!m) return null;
  if (m[1] === "notes" && m[3] !== "json") return null;
  return { kind: m[1] === "notes" ? "note" : "audio", noteId: m[2] };
}
