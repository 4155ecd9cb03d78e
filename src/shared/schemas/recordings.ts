// Live recordings (an extension): a note from its first second, its audio arriving as
// numbered pieces of one stream.
import { z } from "zod";
import { ChannelRoles, HandParticipants, Note } from "./notes.js";

/** The containers a recording's stream may be in, by what recorders produce. */
export const RECORDING_FORMATS = ["webm", "ogg", "wav", "mp4"] as const;
export type RecordingFormat = (typeof RECORDING_FORMATS)[number];

export interface RecordingLimits {
  maxPieceBytes: number;
  maxDurationSec: number;
  maxSeq: number;
  quietMs: number;
  idleMs: number;
  maxOpenPerWorkspace: number;
}

export const RECORDING_LIMITS: RecordingLimits = {
  /** A piece's largest size: seconds of any format, minutes of a compressed one. */
  maxPieceBytes: 4 * 1024 * 1024,
  /** The longest a recording may run, as uploads (4 hours). */
  maxDurationSec: 14_400,
  /** Piece numbers run from 0 to this. */
  maxSeq: 99_999,
  /** A recording that gets no piece for this long is stopped by the server with what it received. */
  quietMs: 120_000,
  /** A recording created ahead of time (idle) waits this long for its first piece. */
  idleMs: 3_600_000,
  /** Recordings under way at once in one workspace. */
  maxOpenPerWorkspace: 20,
};

export const StartRecordingBody = z
  .object({
    format: z.enum(RECORDING_FORMATS).meta({
      description:
        "The container of the audio stream the pieces are parts of: webm (MediaRecorder in Chromium and Firefox), ogg (Ogg/Opus), wav, mp4 (AAC).",
    }),
    title: z.string().trim().max(500).optional(),
    folderId: z.string().max(200).optional(),
    calendarEventId: z.string().max(200).optional(),
    participants: HandParticipants,
    channels: ChannelRoles,
  })
  .strict()
  .meta({ id: "StartRecording" });

export const PieceQuery = z.object({
  durationMs: z.coerce.number().int().min(0).max(600_000).optional().meta({
    description: "How long the piece plays, as the recorder measured it (used for the length limit and gaps).",
  }),
});

export const RecordingParams = z.object({ id: z.string().max(200) });
export const PieceParams = z.object({
  id: z.string().max(200),
  seq: z.coerce
    .number()
    .int("must be a whole number")
    .min(0)
    .max(RECORDING_LIMITS.maxSeq)
    // A path parameter is always required; the coerced input's type hides that from the generator.
    .meta({
      description: "The piece's number: 0 for the first, holding the stream's header; then 1, 2, …",
      param: { required: true },
    }),
});

export const Recording = z
  .object({
    noteId: z.string(),
    status: z.enum(["waiting", "recording", "stopped"]).meta({
      description: "waiting: no piece yet; recording: pieces are arriving; stopped: the note is being processed.",
    }),
    format: z.enum(RECORDING_FORMATS),
    pieces: z.number().int().meta({ description: "Pieces received." }),
    bytes: z.number().int(),
    durationSec: z.number().meta({ description: "The length received so far, from the pieces' durations." }),
    missing: z
      .array(z.number().int())
      .meta({ description: "Numbers below the highest received that have not arrived." }),
    stopsAt: z.string().nullable().meta({
      description: "When the server stops the recording unless another piece arrives (ISO 8601); null once stopped.",
    }),
    limits: z.object({
      maxPieceBytes: z.number().int(),
      maxDurationSec: z.number().int(),
      quietSec: z.number().int(),
    }),
  })
  .meta({ id: "Recording" });
export type RecordingDto = z.infer<typeof Recording>;

export const RecordingEnvelope = z.object({ recording: Recording }).meta({ id: "RecordingEnvelope" });
export const StartedRecording = z.object({ note: Note, recording: Recording }).meta({ id: "StartedRecording" });
export const PieceReceipt = z
  .object({
    seq: z.number().int(),
    bytes: z.number().int(),
    duplicate: z
      .boolean()
      .meta({ description: "true when this number had been stored already (with the same bytes)." }),
    recording: Recording,
  })
  .meta({ id: "PieceReceipt" });
