// Notes from audio (Enterprise only): the upload URL and the note creation.
import type { Services } from "../../../services/index.js";
import { FromAudioBody, FromAudioResult, GenerateUploadUrlBody, UploadUrl } from "../../../shared/schemas/audio.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, jsonBody, ok, refused, routesFor } from "./openapi-helpers.js";
import { IdempotencyHeader } from "../../../shared/schemas/common.js";

const route = routesFor(["Notes from audio"], { scope: "notes", enterprise: true });

const generate = route("generateUploadUrl", {
  summary: "Get a presigned URL to upload a recording (Enterprise)",
  request: { body: jsonBody(GenerateUploadUrlBody) },
  responses: { ...ok(UploadUrl), 400: errors[400], 415: errors[415], ...common },
});

const fromAudio = route("createNoteFromAudio", {
  summary: "Create a note from an uploaded recording (Enterprise)",
  description: "The note starts in status postprocessing and is transcribed and summarized in the background.",
  request: { body: jsonBody(FromAudioBody), headers: IdempotencyHeader },
  responses: {
    ...ok(FromAudioResult),
    400: errors[400],
    404: errors[404],
    409: refused(
      "The recording made a note already, or the Idempotency-Key was used with another body: error.noteId names the note.",
    ),
    415: errors[415],
    ...common,
  },
});

export function audioRoutes(services: Services) {
  const app = newRouter();
  app.openapi(generate, async (c) =>
    c.json(await services.uploads.createUploadUrl(c.get("principal"), c.req.valid("json")), 200),
  );
  app.openapi(fromAudio, async (c) => {
    const p = c.get("principal");
    const body = c.req.valid("json");
    const { noteId, repeated } = await services.idempotency.once(
      p,
      c.req.valid("header")["idempotency-key"],
      // The recording's URL is left out of what a repeat must match: a client that
      // retries an upload sends the file again, under a new URL.
      { operation: "createNoteFromAudio", body: { ...body, audioUrl: undefined } },
      async () => (await services.uploads.createNoteFromAudio(p, body)).noteId,
    );
    if (repeated) c.header("Idempotent-Replayed", "true");
    return c.json({ noteId }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const audioRouteDefs = { generateUploadUrl: generate, createNoteFromAudio: fromAudio };
