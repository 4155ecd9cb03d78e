// The formats one note is exported in, each with its media type and file extension:
// the one table GET /v1/notes/{id}/export, `notula notes export` and the note page's
// download menu read.
import type { NoteDto } from "../schemas/notes.js";
import { noteToMarkdown } from "./markdown.js";
import { noteToSubtitles } from "./subtitles.js";
import { noteToText } from "./text.js";

export const EXPORT_FORMATS = ["md", "txt", "vtt", "srt"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORTS: Record<
  ExportFormat,
  { label: string; contentType: string; write(n: NoteDto, url?: string): string }
> = {
  md: { label: "Markdown", contentType: "text/markdown; charset=utf-8", write: (n, url) => noteToMarkdown(n, { url }) },
  txt: { label: "Plain text", contentType: "text/plain; charset=utf-8", write: (n, url) => noteToText(n, { url }) },
  vtt: { label: "WebVTT subtitles", contentType: "text/vtt; charset=utf-8", write: (n) => noteToSubtitles(n, "vtt") },
  srt: {
    label: "SRT subtitles",
    contentType: "application/x-subrip; charset=utf-8",
    write: (n) => noteToSubtitles(n, "srt"),
  },
};

/** A Content-Disposition that downloads as `name`: ASCII for every client, UTF-8 for those that read it. */
export const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** "2026-11-27-office-planning-note_abc.md": the date, the title's words and the id, so that names are stable. */
export function exportFileName(n: Pick<NoteDto, "id" | "title" | "createdAt">, ext: string): string {
  const slug =
    n.title
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .replace(/[\s_]+/g, "-")
      .slice(0, 60) || "note";
  return `${n.createdAt.slice(0, 10)}-${slug}-${n.id}.${ext}`;
}
