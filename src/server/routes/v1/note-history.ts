import type { Services } from "../../../services/index.js";
import { NoteHistoryList, NoteHistoryQuery, NoteVersionParams } from "../../../shared/schemas/note-history.js";
import { NoteEnvelope } from "../../../shared/schemas/notes.js";
import { IdParam } from "../../../shared/schemas/common.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Notes"], { scope: "notes" });

const list = route("listNoteHistory", {
  ...extension,
  summary: "A note's history (extension)",
  description:
    "Every part a person wrote (title, notes, summary, enhanced note, a transcript line's correction) and every part the machine wrote anew, newest first, with who wrote it. A person's saves of one part within ten minutes are one version. For whoever may edit the note.",
  request: { params: IdParam, query: NoteHistoryQuery },
  responses: { ...ok(NoteHistoryList), 400: errors[400], 404: errors[404], ...common },
});

const restore = route("restoreNoteVersion", {
  ...extension,
  summary: "Restore a version of a note (extension)",
  description:
    "Writes a text part as that version has it, or undoes a line's correction: an edit put back as it was, a deleted line put back, a split line joined again (409 when either part was corrected since). The restore is an edit, kept in the history too. 409 while the note is being processed, for its summary and enhanced note.",
  request: { params: NoteVersionParams },
  responses: { ...ok(NoteEnvelope), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
});

export function noteHistoryRoutes(services: Services) {
  const app = newRouter();
  app.openapi(list, async (c) =>
    c.json(await services.notes.history(c.get("principal"), c.req.valid("param").id, c.req.valid("query")), 200),
  );
  app.openapi(restore, async (c) => {
    const { id, versionId } = c.req.valid("param");
    return c.json({ note: await services.notes.restore(c.get("principal"), id, versionId) }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const noteHistoryRouteDefs = { listNoteHistory: list, restoreNoteVersion: restore };
