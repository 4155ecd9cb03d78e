// GET /v1/notes/{id}/export: one note as a file other tools read (markdown with front
// matter, plain text, WebVTT or SRT subtitles of its transcript), for whoever may read
// the note. The formats are the shared table's (shared/export), as the CLI writes them.
import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { IdParam } from "../../../shared/schemas/common.js";
import { attachment, EXPORT_FORMATS, EXPORTS, exportFileName } from "../../../shared/export/index.js";
import { noteUrl } from "../../../shared/note-links.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Notes"], { scope: "notes" });

export const ExportQuery = z
  .object({
    format: z
      .enum(EXPORT_FORMATS)
      .default("md")
      .meta({ description: "md (markdown with front matter), txt, vtt (WebVTT with voices) or srt" }),
  })
  .strict();

const text = { schema: z.string() };
const exportNote = route("exportNote", {
  ...extension,
  summary: "One note as a file: markdown, plain text, or its transcript as WebVTT or SRT subtitles (extension)",
  description:
    "Sent as an attachment named for the note's date, title and id. Subtitles carry each line's speaker: a WebVTT voice (<v Ana>) or, in SRT, the name before the words.",
  request: { params: IdParam, query: ExportQuery },
  responses: {
    200: {
      description: "The note in the format asked for.",
      content: {
        "text/markdown": text,
        "text/plain": text,
        "text/vtt": text,
        "application/x-subrip": text,
      },
    },
    400: errors[400],
    404: errors[404],
    ...common,
  },
});

export function exportRoutes(services: Services, publicUrl: string) {
  const app = newRouter();
  app.openapi(exportNote, async (c) => {
    const { id } = c.req.valid("param");
    const { format } = c.req.valid("query");
    const note = await services.notes.get(c.get("principal"), id);
    const out = EXPORTS[format];
    const name = exportFileName(note, format);
    return c.body(out.write(note, noteUrl(publicUrl, note.id)), 200, {
      "content-type": out.contentType,
      "content-disposition": attachment(name),
    }) as never;
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const exportRouteDefs = { exportNote };
