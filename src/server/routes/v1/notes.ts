import type { Context } from "hono";
import type { z } from "zod";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { Services } from "../../../services/index.js";
import { BadRequestError } from "../../../core/errors.js";
import { IdempotencyHeader, IdParam, SuccessMessage } from "../../../shared/schemas/common.js";
import {
  NoteCreateBody,
  NoteEnvelope,
  NoteList,
  NoteListQuery,
  NoteUpdateBody,
  ReprocessQuery,
} from "../../../shared/schemas/notes.js";
import { EnhanceBody, SpeakerList, SpeakerRenameBody } from "../../../shared/schemas/templates.js";
import { newRouter, renderedJson } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, refused, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Notes"], { scope: "notes" });

const list = route("listNotes", {
  summary: "List notes",
  description: "Filters combine with AND. List items carry empty enhancedNote, summary and transcripts.",
  request: { query: NoteListQuery },
  responses: { ...ok(NoteList), 400: errors[400], ...common },
});

const get = route("getNote", {
  summary: "Read one note with its summary, enhanced note and transcript",
  request: { params: IdParam },
  responses: { ...ok(NoteEnvelope), 404: errors[404], ...common },
});

const update = route("updateNote", {
  summary: "Update a note",
  description:
    "visibility accepts both shapes; tagIds is a deprecated alias of folderIds and replaces the note's folders.",
  request: { params: IdParam, body: jsonBody(NoteUpdateBody) },
  responses: { ...ok(NoteEnvelope), 400: errors[400], 404: errors[404], 413: errors[413], 415: errors[415], ...common },
});

const create = route("createNote", {
  ...extension,
  summary: "Create a note from text (extension)",
  request: { body: jsonBody(NoteCreateBody), headers: IdempotencyHeader },
  responses: {
    ...ok(NoteEnvelope),
    400: errors[400],
    409: refused(
      "A note was made from the same file before (sourceHash), or the Idempotency-Key was used with another body: error.noteId names the note.",
    ),
    413: errors[413],
    415: errors[415],
    ...common,
  },
});

const remove = route("deleteNote", {
  ...extension,
  summary: "Delete a note (extension)",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], ...common },
});

const reprocess = route("reprocessNote", {
  ...extension,
  summary: "Process a note again (extension)",
  description:
    "Transcribes the recording again (or, for a note without one, summarizes its transcript again). 409 while it is being processed, and 409 when it would lose what a person did: lines of the transcript they corrected (transcribing anew), unless `discardCorrections=true`; a summary or enhanced note they edited, unless `discardEdits=true`.",
  request: { params: IdParam, query: ReprocessQuery },
  responses: { ...ok(NoteEnvelope), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
});

const enhance = route("enhanceNote", {
  ...extension,
  summary: "Write the enhanced note again with a template (extension)",
  description:
    "Runs in the background: the note moves to summarizing and back to completed with the new enhanced note and summary, then a note.updated event fires. If writing fails, the note keeps its previous enhanced note and processingError says why. 409 while the note is being processed, and when a person edited the summary or enhanced note (unless `discardEdits`).",
  request: { params: IdParam, body: jsonBody(EnhanceBody) },
  responses: { ...ok(NoteEnvelope), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
});

const speakers = route("listSpeakers", {
  ...extension,
  summary: "A note's speakers with their names and talk time (extension)",
  request: { params: IdParam },
  responses: { ...ok(SpeakerList), 404: errors[404], ...common },
});

const renameSpeaker = route("renameSpeaker", {
  ...extension,
  summary: "Name a speaker of a note's transcript (extension)",
  description:
    "Gives a speaker label a name, or the name of a participant or member by email; null gives the label back. Applies to every segment wherever the transcript is read, and to later summaries.",
  request: { params: IdParam, body: jsonBody(SpeakerRenameBody) },
  responses: { ...ok(SpeakerList), 400: errors[400], 404: errors[404], ...common },
});

/** folderIds, or its deprecated alias tagIds (then the response says Deprecation: true); never both. */
function folderIdsOf(c: Context, folderIds?: string[], tagIds?: string[]): string[] | undefined {
  if (tagIds === undefined) return folderIds;
  if (folderIds !== undefined) throw new BadRequestError("Send folderIds or its deprecated alias tagIds, not both.");
  c.header("Deprecation", "true");
  return tagIds;
}

export function notesRoutes(services: Services) {
  const app = newRouter();

  app.openapi(list, async (c) => {
    const query = c.req.valid("query");
    if (query.tagIds !== undefined) c.header("Deprecation", "true");
    const { items, pagination } = await services.notes.listJson(c.get("principal"), query);
    // The items arrive as JSON text; the envelope is spliced around them.
    return renderedJson<z.infer<typeof NoteList>>(
      c,
      `{"items":[${items.join(",")}],"pagination":${JSON.stringify(pagination)}}`,
    );
  });

  app.openapi(get, async (c) =>
    c.json({ note: await services.notes.get(c.get("principal"), c.req.valid("param").id) }, 200),
  );

  app.openapi(update, async (c) => {
    const { tagIds, folderIds, ...body } = c.req.valid("json");
    const note = await services.notes.update(c.get("principal"), c.req.valid("param").id, {
      ...body,
      folderIds: folderIdsOf(c, folderIds, tagIds),
    });
    return c.json({ note }, 200);
  });

  app.openapi(create, async (c) => {
    const { tagIds, folderIds, audioUrl, ...body } = c.req.valid("json");
    const input = { ...body, folderIds: folderIdsOf(c, folderIds, tagIds) };
    const p = c.get("principal");
    let made: NoteDto | undefined;
    const { noteId, repeated } = await services.idempotency.once(
      p,
      c.req.valid("header")["idempotency-key"],
      // As for from-audio, a recording's URL is not part of what a repeat must match.
      { operation: "createNote", body: { ...c.req.valid("json"), audioUrl: undefined } },
      async () => {
        made = audioUrl
          ? await services.uploads.createNoteWithRecording(p, { ...input, audioUrl })
          : await services.notes.create(p, input);
        return made.id;
      },
    );
    if (repeated) c.header("Idempotent-Replayed", "true");
    return c.json({ note: made ?? (await services.notes.get(p, noteId)) }, 200);
  });

  app.openapi(reprocess, async (c) =>
    c.json(
      {
        note: await services.notes.reprocess(c.get("principal"), c.req.valid("param").id, c.req.valid("query")),
      },
      200,
    ),
  );

  app.openapi(enhance, async (c) =>
    c.json(
      {
        note: await services.notes.enhance(
          c.get("principal"),
          c.req.valid("param").id,
          c.req.valid("json").templateId,
          c.req.valid("json"),
        ),
      },
      200,
    ),
  );
  app.openapi(speakers, async (c) =>
    c.json({ speakers: await services.notes.speakers(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(renameSpeaker, async (c) =>
    c.json(
      {
        speakers: await services.notes.renameSpeaker(c.get("principal"), c.req.valid("param").id, c.req.valid("json")),
      },
      200,
    ),
  );

  app.openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    await services.notes.delete(c.get("principal"), id);
    return c.json({ success: true, message: `Note ${id} deleted.` }, 200);
  });

  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const noteRouteDefs = {
  listNotes: list,
  getNote: get,
  updateNote: update,
  createNote: create,
  deleteNote: remove,
  reprocessNote: reprocess,
  enhanceNote: enhance,
  listSpeakers: speakers,
  renameSpeaker,
};
