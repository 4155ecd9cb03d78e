// The browser's upload and recorder: the page runs the API's flows through these JSON
// steps (the session and the CSRF header stand for the API key), reading their bodies
// with the API's own schemas; only the wording for people differs.
import { Hono } from "hono";
import { z } from "zod";
import { BadRequestError, ForbiddenError } from "../../core/errors.js";
import type { Services } from "../../services/index.js";
import { AUDIO_EXTENSIONS } from "../../shared/vocabulary.js";
import { PieceParams, PieceQuery, RECORDING_FORMATS, StartRecordingBody } from "../../shared/schemas/recordings.js";
import { FromAudioBody, GenerateUploadUrlBody } from "../../shared/schemas/audio.js";
import { receivePiece } from "../../http/recording-piece.js";
import { describeZodError } from "../../http/context.js";
import { csrfOk, requireViewer, viewerOf, type WebContext, type WebEnv } from "../context.js";
import { jsonRequest } from "../json-request.js";
import { formatBytes, statusLabel } from "../format.js";
import { parsePersonLine } from "../../shared/person-line.js";
import { participantFrom } from "../../services/note-meeting.js";
import { NOTE_TEXT_MAX } from "../../shared/schemas/notes.js";
import { textVersion } from "../../shared/text-version.js";

/** Participant fields as typed ("Name <email>", an address or a name), read on the server as the note page reads them. */
const TypedPeople = z.array(z.string().max(900)).max(500).optional();
const typedPeople = (lines: string[] | undefined) =>
  lines
    ?.map(parsePersonLine)
    .filter((x) => x !== null)
    .map(participantFrom);

/** The API's upload-URL body, and the file's size, so that a file too large is refused before it is sent. */
const WebUploadUrlBody = GenerateUploadUrlBody.extend({ size: z.number().int().nonnegative().optional() });

/** A recording's name, folder and people changed while it runs (an empty folder means none; people are added). */
const RecordingDetailsBody = z
  .object({
    title: z.string().trim().min(1).max(500).optional(),
    folderId: z.string().max(200).optional(),
    participants: TypedPeople,
  })
  .strict();

/** The notepad's save: the notes as typed, and the version of the notes they were typed on. */
const OwnNotesBody = z
  .object({ text: z.string().max(NOTE_TEXT_MAX), base: z.string().regex(/^[0-9a-f]{16}$/, "is not a version") })
  .strict();

const uploadWording = {
  fileExtension: `Unsupported file type: use ${AUDIO_EXTENSIONS.join(", ")}.`,
  duration: "The recording must be between 1 second and 4 hours long.",
};

/** A JSON step's body, read with the API's schema after the CSRF header and the plan are checked. */
async function jsonStep<S extends z.ZodType>(c: WebContext, schema: S, wording: Partial<Record<string, string>> = {}) {
  if (viewerOf(c).principal.plan !== "enterprise")
    throw new ForbiddenError("Notes from recordings are part of the Enterprise plan.");
  return jsonRequest(c, schema, wording);
}

export function browserAudioSteps(services: Services, opts: { maxUploadBytes: number }) {
  const app = new Hono<WebEnv>();
  app.use("/notes/*", requireViewer);

  app.post("/notes/upload-url", async (c) => {
    const { viewer, body } = await jsonStep(c, WebUploadUrlBody, uploadWording);
    if (body.size !== undefined && body.size > opts.maxUploadBytes)
      throw new BadRequestError(`The file is larger than the ${formatBytes(opts.maxUploadBytes)} this server accepts.`);
    // The API takes any extension and names the ones it knows; a person is told the same in words.
    if (!(AUDIO_EXTENSIONS as string[]).includes(body.fileExtension.replace(/^\./, "").toLowerCase()))
      throw new BadRequestError(uploadWording.fileExtension);
    return c.json(
      await services.uploads.createUploadUrl(
        viewer.principal,
        { fileExtension: body.fileExtension, duration: body.duration },
        { via: "server" },
      ),
    );
  });
  app.post("/notes/from-upload", async (c) => {
    const { viewer, body } = await jsonStep(c, FromAudioBody.extend({ participants: TypedPeople }));
    return c.json(
      await services.uploads.createNoteFromAudio(viewer.principal, {
        ...body,
        participants: typedPeople(body.participants),
      }),
    );
  });

  // Recording: the page streams MediaRecorder's pieces here, and reads the transcript so far.
  app.post("/notes/record/start", async (c) => {
    const { viewer, body } = await jsonStep(c, StartRecordingBody.extend({ participants: TypedPeople }), {
      format: `This browser records in a format notula does not take; it takes ${RECORDING_FORMATS.join(", ")}.`,
    });
    const { note, recording } = await services.recordings.start(viewer.principal, {
      ...body,
      participants: typedPeople(body.participants),
    });
    return c.json({ noteId: note.id, title: note.title, limits: recording.limits });
  });
  // The name and folder typed while the meeting is recorded: the note exists, so they are saved to it.
  app.post("/notes/:id/record/details", async (c) => {
    const { viewer, body } = await jsonStep(c, RecordingDetailsBody);
    const id = c.req.param("id");
    // People typed during the meeting join those there already (the event's attendees);
    // removing someone is for the note page.
    const note = await services.notes.update(viewer.principal, id, {
      title: body.title,
      folderIds: body.folderId === undefined ? undefined : body.folderId ? [body.folderId] : [],
      addParticipants: typedPeople(body.participants),
    });
    return c.json({ title: note.title, folderIds: note.tags.map((t) => t.id), participants: note.participants.length });
  });
  app.put("/notes/:id/pieces/:seq", async (c) => {
    if (!(await csrfOk(c))) throw new ForbiddenError("The page had expired; reload it and try again.");
    // The same schemas and the same reading of the body as the API's route.
    const params = PieceParams.safeParse(c.req.param());
    const query = PieceQuery.safeParse(c.req.query());
    if (!params.success) throw new BadRequestError(describeZodError(params.error));
    if (!query.success) throw new BadRequestError(describeZodError(query.error));
    const receipt = await receivePiece(c, (body, contentLength) =>
      services.recordings.addPiece(viewerOf(c).principal, params.data.id, params.data.seq, body, {
        durationMs: query.data.durationMs,
        contentLength,
      }),
    );
    return c.json({ seq: receipt.seq, duplicate: receipt.duplicate, missing: receipt.recording.missing });
  });
  app.post("/notes/:id/record/stop", async (c) => {
    if (!(await csrfOk(c))) throw new ForbiddenError("The page had expired; reload it and try again.");
    const { note } = await services.recordings.stop(viewerOf(c).principal, c.req.param("id"));
    return c.json({ noteId: note.id, status: note.status });
  });
  // The notepad beside the live transcript: saved as the person types (own-notes.ts).
  app.post("/notes/:id/own-notes", async (c) => {
    const { viewer, body } = await jsonRequest(c, OwnNotesBody, {
      text: `Your notes can be at most ${NOTE_TEXT_MAX.toLocaleString("en")} characters.`,
    });
    const r = await services.notes.saveOwnNotes(viewer.principal, c.req.param("id"), body.text, body.base);
    return r.saved ? c.json({ version: r.version }) : c.json({ current: r.current, version: r.version }, 409);
  });
  app.get("/notes/:id/live", async (c) => {
    const note = await services.notes.get(viewerOf(c).principal, c.req.param("id"));
    return c.json({
      status: note.status,
      label: statusLabel(note),
      notes: note.userWrittenNote,
      notesVersion: textVersion(note.userWrittenNote),
      transcript: note.transcripts.map((s) => ({ at: s.startTimestamp, speaker: s.speaker, text: s.text })),
    });
  });
  return app;
}
