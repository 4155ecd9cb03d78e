// Live recordings: a note from its first second, its audio arriving as numbered pieces
// of one stream (what MediaRecorder's timeslices are, and what ffmpeg writes to a
// pipe). Each piece is in the audio store before it is acknowledged; a number sent
// again is stored once; the pieces are joined in order when the recording stops,
// and the note is processed as an uploaded recording is.
//
//   start  → the note (idle) and its recording (status recording)
//   piece  → stored, recorded; the first moves the note to recording; each moves the
//            time the server stops a quiet recording
//   stop   → the note goes to postprocessing; the pipeline joins the pieces first
//   quiet, or 4 hours → the server stops it (pipeline/recording-watchdog.ts)
import type { ParticipantValue } from "../db/schema/notes.js";
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { notePolicy } from "../core/access.js";
import type { Clock } from "../core/clock.js";
import {
  BadRequestError,
  ConflictError,
  InsufficientStorageError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Repositories } from "../db/repos/index.js";
import type { RecordingRow } from "../db/repos/recordings.js";
import type { NoteRow } from "../db/stores/note-store.js";
import {
  RECORDING_LIMITS,
  type RecordingDto,
  type RecordingFormat,
  type RecordingLimits,
} from "../shared/schemas/recordings.js";
import { AUDIO_CONTENT_TYPES } from "../shared/vocabulary.js";
import { audioKey, pieceKey } from "../storage/audio-key.js";
import { audioContainerOf, describeNonAudio } from "../storage/audio-signature.js";
import { StorageFullError, type AudioStore } from "../storage/audio-store.js";
import type { Access } from "./access.js";
import type { NoteLifecycle } from "./note-lifecycle.js";
import type { NoteService } from "./notes.js";
import { describeGaps, missingPieces } from "./recording-gaps.js";
import { storeSeekable } from "./recording-audio.js";
import type { Jobs } from "../jobs/job.js";

export interface RecordingServiceDeps {
  repos: Repositories;
  store: AudioStore;
  notes: Pick<NoteService, "createFromAudio" | "get">;
  lifecycle: NoteLifecycle;
  access: Access;
  now: Clock;
  maxUploadBytes: number;
  /** The watchdog's next look at a recording, and transcribing what has arrived (the transcript grows while the meeting goes on). */
  jobs: Jobs;
  /**
   * The person's one meeting under way that invites them, if exactly one: a recording
   * started now with no meeting named is for it. Only a recording: an upload or a typed
   * note was made at another time, and that meeting's people must not get its recap.
   */
  ongoingEvent?: (p: Principal) => Promise<string | null>;
  limits?: Partial<RecordingLimits>;
}

/** Where a recording's joined audio is kept: the key an upload of its format would have. */
export const recordingAudio = (r: Pick<RecordingRow, "workspaceId" | "id" | "format">) => ({
  workspaceId: r.workspaceId,
  id: r.id,
  extension: r.format,
});

/** Which container each format's first piece must start with. */
const CONTAINER: Record<RecordingFormat, string> = { webm: "webm", ogg: "ogg", wav: "wav", mp4: "mp4" };

export function createRecordingService(d: RecordingServiceDeps) {
  const limits = { ...RECORDING_LIMITS, ...d.limits };
  const { repos, store, now } = d;

  /** The recording note the caller may send audio to: 404 if they cannot see it, 403 if it is not theirs. */
  async function ownRecording(p: Principal, noteId: string): Promise<{ note: NoteRow; recording: RecordingRow }> {
    const a = await d.access.actor(p);
    const note = await repos.notes.get(await d.access.view(p), noteId);
    if (!note) throw new NotFoundError(`Note ${noteId} not found.`);
    d.access.require(
      notePolicy.record(a, await d.access.noteFacts(note)),
      "Only the person recording sends its audio.",
    );
    const recording = note.recordingId ? await repos.recordings.get(note.recordingId) : null;
    if (!recording || !(note.status === "idle" || note.status === "recording") || !isLive(recording))
      throw new ConflictError(`Note ${noteId} is not being recorded (it is ${note.status}).`);
    return { note, recording };
  }

  const isLive = (u: RecordingRow) => u.status === "recording";

  /** When the server stops the recording unless something happens first. */
  function deadline(u: RecordingRow, hasPieces: boolean): number {
    const quiet = u.quietUntil;
    const lengthLimit = u.createdAt + (limits.maxDurationSec + 600) * 1000;
    return Math.min(quiet, hasPieces ? lengthLimit : quiet);
  }

  async function describe(noteId: string, u: RecordingRow): Promise<RecordingDto> {
    const pieces = await repos.recordingPieces.list(u.id);
    const live = isLive(u);
    return {
      noteId,
      status: !live ? "stopped" : pieces.length ? "recording" : "waiting",
      format: u.format,
      pieces: pieces.length,
      bytes: pieces.reduce((s, p) => s + p.bytes, 0),
      durationSec: Math.round(pieces.reduce((s, p) => s + (p.durationMs ?? 0), 0) / 100) / 10,
      missing: missingPieces(pieces.map((p) => p.seq)),
      stopsAt: live ? new Date(deadline(u, pieces.length > 0)).toISOString() : null,
      limits: {
        maxPieceBytes: limits.maxPieceBytes,
        maxDurationSec: limits.maxDurationSec,
        quietSec: Math.round(limits.quietMs / 1000),
      },
    };
  }

  /**
   * Ends a live recording: no piece is taken after this. With audio, the note is
   * processed (the pipeline joins the pieces first); without, it says it got none.
   */
  async function finish(u: RecordingRow): Promise<boolean> {
    const pieces = await repos.recordingPieces.list(u.id);
    const ended = await repos.transaction(async () => {
      if (!(await repos.recordings.transition(u.id, "recording", { status: "stopped", stoppedAt: now() })))
        return false; // stopped by another request (or the watchdog) meanwhile
      const note = u.noteId ? await repos.notes.getForProcessing(u.noteId) : null;
      if (note)
        await d.lifecycle.recordingStopped(note.id, {
          totalDurationSec: Math.round(pieces.reduce((s, p) => s + (p.durationMs ?? 0), 0) / 1000),
          hadAudio: pieces.length > 0,
          gaps: describeGaps(pieces),
        });
      return true;
    });
    // No audio, or no note any more: the pieces have no use.
    if (ended && (!pieces.length || !u.noteId || !(await repos.notes.getForProcessing(u.noteId))))
      await discardPieces(u);
    return ended;
  }

  async function discardPieces(u: Pick<RecordingRow, "id" | "workspaceId">) {
    for (const piece of await repos.recordingPieces.list(u.id)) await store.delete(pieceKey(u, piece.seq));
    await repos.recordingPieces.deleteAll(u.id);
  }
  return {
    limits,

    /** Starts a recording: its note (idle until the first piece) and where its pieces go. */
    async start(
      p: Principal,
      input: {
        format: RecordingFormat;
        title?: string;
        folderId?: string;
        calendarEventId?: string;
        participants?: Partial<ParticipantValue>[];
        channels?: readonly ["me", "others"];
      },
    ) {
      const open = await repos.recordings.countLive(p.workspaceId);
      if (open >= limits.maxOpenPerWorkspace)
        throw new ConflictError(
          `This workspace has ${open} recordings under way, the most at once (${limits.maxOpenPerWorkspace}); stop one first.`,
        );
      const t = now();
      const recording: RecordingRow = {
        id: `rec_${randomBytes(16).toString("base64url")}`,
        workspaceId: p.workspaceId,
        userId: p.userId,
        noteId: null,
        format: input.format,
        contentType: AUDIO_CONTENT_TYPES[input.format],
        maxBytes: d.maxUploadBytes,
        status: "recording",
        // Created ahead of its first piece, it waits longer than a quiet recording.
        quietUntil: t + limits.idleMs,
        bytes: null,
        createdAt: t,
        stoppedAt: null,
      };
      const noteId = await repos.transaction(async () => {
        await repos.recordings.insert(recording);
        const { id } = await d.notes.createFromAudio(p, {
          title: input.title,
          folderId: input.folderId,
          calendarEventId: input.calendarEventId ?? (await d.ongoingEvent?.(p)) ?? undefined,
          participants: input.participants,
          channels: input.channels,
          audio: { kind: "recording", id: recording.id },
          declaredDurationSec: 0,
          status: "idle",
        });
        await repos.recordings.transition(recording.id, "recording", { noteId: id });
        await d.jobs.enqueue("recording-watchdog", { recordingId: recording.id }, { delayMs: limits.quietMs });
        return id;
      });
      recording.noteId = noteId;
      return { note: await d.notes.get(p, noteId), recording: await describe(noteId, recording) };
    },

    /** A recording under way: what has arrived, what is missing, when the server stops it. */
    async status(p: Principal, noteId: string): Promise<RecordingDto> {
      const note = await repos.notes.get(await d.access.view(p), noteId);
      if (!note) throw new NotFoundError(`Note ${noteId} not found.`);
      const recording = note.recordingId ? await repos.recordings.get(note.recordingId) : null;
      if (!recording || !isLive(recording))
        throw new NotFoundError(`Note ${noteId} is not being recorded (it is ${note.status}).`);
      return describe(noteId, recording);
    },

    /**
     * Stores piece `seq` of the recording and acknowledges it once it is durable. A
     * number already stored with the same bytes is acknowledged again (a retry); with
     * other bytes it is refused. Pieces may come in any order.
     */
    async addPiece(
      p: Principal,
      noteId: string,
      seq: number,
      body: Readable,
      opts: { durationMs?: number; contentLength?: string } = {},
    ): Promise<{ seq: number; bytes: number; duplicate: boolean; recording: RecordingDto }> {
      if (opts.contentLength !== undefined && Number(opts.contentLength) > limits.maxPieceBytes)
        throw new PayloadTooLargeError(`A piece may be at most ${limits.maxPieceBytes} bytes; send shorter pieces.`);
      const { note, recording } = await ownRecording(p, noteId);
      const bytes = await readBounded(body, limits.maxPieceBytes);
      if (!bytes.length) throw new BadRequestError("The piece is empty.");
      if (seq === 0) {
        const container = audioContainerOf(bytes);
        if (container !== CONTAINER[recording.format])
          throw new UnsupportedMediaTypeError(
            `Piece 0 must start the ${recording.format} stream the recording was started with; it is ${container ?? describeNonAudio(bytes)}.`,
          );
      }
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const duplicateOf = async () => {
        const existing = await repos.recordingPieces.get(recording.id, seq);
        if (!existing) return null;
        if (existing.sha256 !== sha256)
          throw new ConflictError(`Piece ${seq} was received already with other bytes; send the next number.`);
        return existing;
      };
      const again = await duplicateOf();
      if (again) return { seq, bytes: again.bytes, duplicate: true, recording: await describe(noteId, recording) };

      const before = await repos.recordingPieces.summary(recording.id);
      const lengthSoFar = Math.max(before.durationMs, 0) + (opts.durationMs ?? 0);
      if (
        lengthSoFar > limits.maxDurationSec * 1000 ||
        now() > recording.createdAt + (limits.maxDurationSec + 600) * 1000
      ) {
        await finish(recording);
        throw new ConflictError(
          `The recording reached the ${limits.maxDurationSec / 3600}-hour limit (${limits.maxDurationSec} s) and was stopped; what came before is being processed.`,
        );
      }
      if (before.bytes + bytes.length > recording.maxBytes)
        throw new PayloadTooLargeError(`The recording would be larger than ${recording.maxBytes} bytes; stop it.`);

      try {
        await store.put(pieceKey(recording, seq), Readable.from([bytes]), { maxBytes: limits.maxPieceBytes });
      } catch (err) {
        if (err instanceof StorageFullError) throw new InsufficientStorageError();
        throw err;
      }
      const t = now();
      const added = await repos.transaction(async () => {
        // Refused if the recording stopped while the piece was being stored.
        if (!(await repos.recordings.transition(recording.id, "recording", { quietUntil: t + limits.quietMs })))
          return null;
        return await repos.recordingPieces.insert({
          recordingId: recording.id,
          seq,
          bytes: bytes.length,
          sha256,
          durationMs: opts.durationMs ?? null,
          receivedAt: t,
        });
      });
      if (added === null) {
        await store.delete(pieceKey(recording, seq)).catch(() => {});
        throw new ConflictError(`Note ${noteId} is not being recorded any more; piece ${seq} was not kept.`);
      }
      if (!added) await duplicateOf(); // another request stored this number meanwhile: same bytes, or 409
      if (note.status === "idle") await d.lifecycle.recordingStarted(note.id);
      if (added) await d.jobs.enqueue("live-transcription", { recordingId: recording.id });
      const current = (await repos.recordings.get(recording.id)) ?? recording;
      return { seq, bytes: bytes.length, duplicate: !added, recording: await describe(noteId, current) };
    },

    /** Stops the caller's recording: the note is processed with the pieces received. */
    async stop(p: Principal, noteId: string) {
      const { recording } = await ownRecording(p, noteId);
      await finish(recording);
      return { note: await d.notes.get(p, noteId) };
    },

    /**
     * The watchdog's look at a recording: stopped when quiet past its time (or at the
     * length limit); otherwise, when to look again (ms), or null once it is over.
     */
    async check(recordingId: string): Promise<number | null> {
      const u = await repos.recordings.get(recordingId);
      if (!u || !isLive(u)) return null;
      const pieces = await repos.recordingPieces.summary(u.id);
      const due = deadline(u, pieces.pieces > 0);
      // Looked at again at least every `quietMs`: a piece moves the deadline without a job.
      if (due > now()) return Math.min(due - now(), limits.quietMs);
      await finish(u);
      return null;
    },

    /**
     * Joins a stopped recording's pieces, in order, into its one recording in the store,
     * then removes them (the pipeline calls this before decoding). Safe to run again:
     * once the recording is whole, whatever pieces remain are only removed.
     */
    async assemble(u: RecordingRow): Promise<void> {
      const pieces = await repos.recordingPieces.list(u.id);
      if (await store.exists(audioKey(recordingAudio(u)))) {
        if (pieces.length) await discardPieces(u);
        return;
      }
      if (!pieces.length) throw new NotFoundError("The recording's audio is missing.");
      const joined = Readable.from(
        (async function* () {
          for (const piece of pieces) {
            // A piece gone from the store counts as a gap, not a failure.
            if (!(await store.exists(pieceKey(u, piece.seq)))) continue;
            yield* store.read(pieceKey(u, piece.seq));
          }
        })(),
      );
      const stored = await storeSeekable(store, audioKey(recordingAudio(u)), u.format, joined, u.maxBytes);
      await repos.recordings.transition(u.id, "stopped", { bytes: stored.bytes });
      await discardPieces(u);
    },

    /** Removes what a deleted note's recording left: its pieces. */
    discardPieces,
  };
}

export type RecordingService = ReturnType<typeof createRecordingService>;

/**
 * The whole body, refusing it (413) past `max` bytes. The rest is left unread rather
 * than destroyed, so that the refusal still reaches the client (the route closes the
 * connection after it).
 */
function readBounded(body: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () => body.off("data", onData).off("end", onEnd).off("error", onError);
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > max) {
        done();
        body.pause();
        reject(new PayloadTooLargeError(`A piece may be at most ${max} bytes; send shorter pieces.`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      done();
      reject(new BadRequestError(`The piece did not arrive whole: ${err.message}`));
    };
    body.on("data", onData).on("end", onEnd).on("error", onError);
  });
}
