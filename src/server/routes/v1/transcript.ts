import type { Services } from "../../../services/index.js";
import {
  TranscriptLineDeleteQuery,
  TranscriptLineParams,
  TranscriptLines,
  TranscriptLineSplitBody,
  TranscriptLineUpdateBody,
} from "../../../shared/schemas/transcript-edits.js";
import { SuccessMessage } from "../../../shared/schemas/common.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Notes"], { scope: "notes" });

const STALE =
  "409 when the line changed since the version given (error.current is the line as it is now), or while the note is being processed.";

const update = route("updateTranscriptLine", {
  ...extension,
  summary: "Correct a transcript line: its words or its speaker (extension)",
  description: `Whoever may edit the note may correct its transcript. \`speaker\` with \`fromHereOn\` gives the following lines of the same speaker too. Search sees the correction at once. ${STALE}`,
  request: { params: TranscriptLineParams, body: jsonBody(TranscriptLineUpdateBody) },
  responses: { ...ok(TranscriptLines), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
});

const split = route("splitTranscriptLine", {
  ...extension,
  summary: "Split a transcript line at a word (extension)",
  description: `The first part keeps the line's id; the rest is a new line. ${STALE}`,
  request: { params: TranscriptLineParams, body: jsonBody(TranscriptLineSplitBody) },
  responses: { ...ok(TranscriptLines), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
});

const remove = route("deleteTranscriptLine", {
  ...extension,
  summary: "Delete a transcript line (extension)",
  description: `For words nobody said. ${STALE}`,
  request: { params: TranscriptLineParams, query: TranscriptLineDeleteQuery },
  responses: { ...ok(SuccessMessage), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
});

export function transcriptRoutes(services: Services) {
  const app = newRouter();
  app.openapi(update, async (c) => {
    const { id, segmentId } = c.req.valid("param");
    return c.json(await services.notes.transcript.edit(c.get("principal"), id, segmentId, c.req.valid("json")), 200);
  });
  app.openapi(split, async (c) => {
    const { id, segmentId } = c.req.valid("param");
    return c.json(await services.notes.transcript.split(c.get("principal"), id, segmentId, c.req.valid("json")), 200);
  });
  app.openapi(remove, async (c) => {
    const { id, segmentId } = c.req.valid("param");
    await services.notes.transcript.remove(c.get("principal"), id, segmentId, c.req.valid("query").version);
    return c.json({ success: true, message: `Line ${segmentId} deleted.` }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const transcriptRouteDefs = {
  updateTranscriptLine: update,
  splitTranscriptLine: split,
  deleteTranscriptLine: remove,
};
