// Live recordings (an extension; Enterprise, as notes from audio are): start, pieces,
// status, stop. A recording is a note from its first second.
import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { NoteEnvelope } from "../../../shared/schemas/notes.js";
import {
  PieceParams,
  PieceQuery,
  PieceReceipt,
  RECORDING_FORMATS,
  RECORDING_LIMITS,
  RecordingEnvelope,
  RecordingParams,
  StartedRecording,
  StartRecordingBody,
} from "../../../shared/schemas/recordings.js";
import { receivePiece } from "../../../http/recording-piece.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, refused, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Recordings"], { scope: "notes", enterprise: true });
const binary = { schema: z.string().meta({ format: "binary" }) };

const start = route("startRecording", {
  summary: "Start recording a meeting (Enterprise)",
  description:
    "Creates the note at once (status idle until the first piece, then recording) and returns where its audio goes. " +
    `Send the audio stream as numbered pieces (PUT …/pieces/{seq}) and stop it when the meeting ends. At most ${RECORDING_LIMITS.maxOpenPerWorkspace} recordings are under way at once in a workspace; the server stops one that gets no piece for ${RECORDING_LIMITS.quietMs / 1000} s, or that reaches ${RECORDING_LIMITS.maxDurationSec} s.`,
  request: { body: jsonBody(StartRecordingBody) },
  responses: { ...ok(StartedRecording), 400: errors[400], 404: errors[404], 409: errors[409], ...common },
  ...extension,
});

const piece = route("addRecordingPiece", {
  summary: "Send a piece of a recording's audio",
  description:
    "The body is the next part of the audio stream, as the recorder wrote it (MediaRecorder's timeslices, an encoder's output): " +
    `piece 0 starts the stream (its header), the rest follow it; up to ${RECORDING_LIMITS.maxPieceBytes} bytes each. ` +
    "The answer comes once the piece is stored. Pieces may arrive in any order; a number sent again with the same bytes is acknowledged again (duplicate: true), with other bytes it is refused (409). The recording is the pieces joined in order.",
  request: {
    params: PieceParams,
    query: PieceQuery,
    body: { content: Object.fromEntries(RECORDING_FORMATS.map((f) => [`audio/${f}`, binary])) },
  },
  responses: {
    ...ok(PieceReceipt),
    400: errors[400],
    404: errors[404],
    409: refused(
      "The note is not being recorded (stopped, or at its length limit), or the number was used for other bytes.",
    ),
    413: refused(`The piece is larger than ${RECORDING_LIMITS.maxPieceBytes} bytes.`),
    415: refused("Piece 0 does not start the format the recording was started with (or is not audio)."),
    507: refused("The server is out of disk space; nothing was stored: send the piece again later."),
    ...common,
  },
  ...extension,
});

const status = route("getRecording", {
  summary: "A recording under way: what has arrived and what is missing",
  request: { params: RecordingParams },
  responses: { ...ok(RecordingEnvelope), 404: errors[404], ...common },
  ...extension,
});

const stop = route("stopRecording", {
  summary: "Stop a recording",
  description:
    "No piece is taken after this. The note moves on as an uploaded recording does (postprocessing → transcript-processing → summarizing → completed); pieces that never arrived are named in its processingWarnings.",
  request: { params: RecordingParams },
  responses: { ...ok(NoteEnvelope), 404: errors[404], 409: errors[409], ...common },
  ...extension,
});

export function recordingRoutes(services: Services) {
  const app = newRouter();
  app.openapi(start, async (c) =>
    c.json(await services.recordings.start(c.get("principal"), c.req.valid("json")), 200),
  );
  app.openapi(piece, async (c) => {
    const { id, seq } = c.req.valid("param");
    const { durationMs } = c.req.valid("query");
    return c.json(
      await receivePiece(c, (body, contentLength) =>
        services.recordings.addPiece(c.get("principal"), id, seq, body, { durationMs, contentLength }),
      ),
      200,
    );
  });
  app.openapi(status, async (c) =>
    c.json({ recording: await services.recordings.status(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(stop, async (c) =>
    c.json(await services.recordings.stop(c.get("principal"), c.req.valid("param").id), 200),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const recordingRouteDefs = {
  startRecording: start,
  addRecordingPiece: piece,
  getRecording: status,
  stopRecording: stop,
};

/** Pieces are audio, not JSON: the JSON body limit does not apply to them (their own does). */
export const isPieceUpload = (method: string, path: string) =>
  method === "PUT" && /^\/v1\/recordings\/[^/]+\/pieces\/[^/]+$/.test(path);
