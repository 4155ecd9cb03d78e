// Audio uploads through presigned URLs, and notes made from them.
// generate-upload-url signs a one-time URL on this server (10 minutes, bound to the
// workspace, content type and size limit); PUT streams the file into the audio
// store; from-audio turns the upload into a note and queues its processing.
import type { ParticipantValue } from "../db/schema/notes.js";
import type { NoteCreateInput } from "../shared/schemas/notes.js";
import { audioKey } from "../storage/audio-key.js";
import { randomBytes } from "node:crypto";
import { AUDIO_CONTENT_TYPES } from "../shared/vocabulary.js";
import { audioContainerOf, describeNonAudio, SIGNATURE_BYTES } from "../storage/audio-signature.js";
import type { Readable } from "node:stream";
import type { Repositories } from "../db/repos/index.js";
import type { AudioUploadRow } from "../db/repos/audio-uploads.js";
import { AudioIncompleteError, AudioTooLargeError, StorageFullError, type AudioStore } from "../storage/audio-store.js";
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InsufficientStorageError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../core/errors.js";
import type { NoteService } from "./notes.js";
import type { Principal } from "../core/principal.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Clock } from "../core/clock.js";

export const UPLOAD_URL_TTL_MS = 10 * 60 * 1000;
export const MAX_DURATION_SEC = 14_400;
export { AUDIO_CONTENT_TYPES };
const AUDIO_URL_PREFIX = "notula://audio/";
/** How long a PUT waits for this process to let go of a cut upload of the same URL. */
const RECEIVE_SETTLE_MS = 2_000;
/** Retry-After for a PUT refused because the URL is being received (here or on another replica). */
const RECEIVE_RETRY_SEC = 2;

export interface UploadServiceDeps {
  repos: Repositories;
  store: AudioStore;
  secrets: SecretBox;
  notes: NoteService;
  now: Clock;
  maxUploadBytes: number;
  publicUrl: string;
}

function signedFields(u: AudioUploadRow, expires: number) {
  return ["PUT", u.id, u.workspaceId, u.contentType, u.maxBytes, expires].join("\n");
}

export function createUploadService(d: UploadServiceDeps) {
  /**
   * A presigned PUT went straight to the store, so this server never saw it: the
   * object's presence says it arrived. A presigned PUT can bind an exact length but
   * not a limit, so the size limit is enforced here and an oversize object removed.
   */
  const notAudio = (head: Buffer) =>
    `The file is ${describeNonAudio(head)}, not a recording: notula reads ${[...new Set(Object.keys(AUDIO_CONTENT_TYPES))].join(", ")}.`;

  async function adoptDirectUpload(upload: AudioUploadRow) {
    const bytes = await d.store.size(audioKey(upload));
    if (bytes === null)
      throw new BadRequestError("audioUrl: the file has not been uploaded yet; PUT it to the presignedUrl first.");
    if (bytes > upload.maxBytes) {
      await d.store.delete(audioKey(upload));
      throw new PayloadTooLargeError(
        `The file is larger than this upload's limit of ${upload.maxBytes} bytes; it was removed.`,
      );
    }
    // Sent straight to the bucket, so checked here: its first bytes must be a recording's.
    const head = await readAll(d.store.read(audioKey(upload), { start: 0, end: SIGNATURE_BYTES - 1 }));
    if (!audioContainerOf(head)) {
      await d.store.delete(audioKey(upload));
      throw new UnsupportedMediaTypeError(`${notAudio(head)} It was removed; upload a recording to a new URL.`);
    }
    if (
      !(await d.repos.audioUploads.transition(upload.id, "pending", { status: "uploaded", bytes, uploadedAt: d.now() }))
    )
      throw new ConflictError("audioUrl: this recording is being used by another request.");
  }

  /** The upload an audioUrl names, in the caller's workspace, received whole and not yet made a note of. */
  async function claimable(p: Principal, audioUrl: string): Promise<AudioUploadRow> {
    const id = audioUrl.startsWith(AUDIO_URL_PREFIX) ? audioUrl.slice(AUDIO_URL_PREFIX.length) : null;
    const upload = id ? await d.repos.audioUploads.getInWorkspace(p.workspaceId, id) : null;
    if (!upload)
      throw new NotFoundError(
        "audioUrl: no such upload in this workspace; use the audioUrl that generate-upload-url returned.",
      );
    if (!(await d.repos.users.get(p.userId))) throw new NotFoundError("User not found.");
    if (upload.status === "used") throw new ConflictError("audioUrl: this recording already made a note.");
    if (upload.status === "pending" && d.store.presignPut) await adoptDirectUpload(upload);
    else if (upload.status !== "uploaded")
      throw new BadRequestError("audioUrl: the file has not been uploaded yet; PUT it to the presignedUrl first.");
    return upload;
  }

  /**
   * The uploads this process is receiving, each until its row is settled again. A client
   * whose connection was cut retries at once, while the server may still be putting the
   * upload back to "pending": the retry waits for that rather than being refused.
   */
  const receiving = new Map<string, Promise<unknown>>();

  /** The upload's row once this process has finished any receive of it, waiting at most `ms`. */
  async function settled(row: AudioUploadRow, ms: number): Promise<AudioUploadRow> {
    const inFlight = receiving.get(row.id);
    if (row.status !== "receiving" || !inFlight) return row;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([inFlight.catch(() => undefined), gaveUp]);
    clearTimeout(timer);
    return (await d.repos.audioUploads.get(row.id)) ?? row;
  }

  /** Stores an upload's bytes, once: a recording's signature first, the size limit throughout. */
  function keep(row: AudioUploadRow, body: Readable) {
    const done = keepOnce(row, body);
    receiving.set(row.id, done);
    return done.finally(() => {
      if (receiving.get(row.id) === done) receiving.delete(row.id);
    });
  }

  async function keepOnce(row: AudioUploadRow, body: Readable) {
    // Claim the upload so that a second PUT racing this one is refused.
    if (!(await d.repos.audioUploads.transition(row.id, "pending", { status: "receiving" })))
      throw new ConflictError("This upload URL is already in use.");
    try {
      const head = await peekHead(body, SIGNATURE_BYTES);
      // A body that broke off is the store's to report (400), not a wrong type.
      if (!body.errored && !audioContainerOf(head)) throw new UnsupportedMediaTypeError(notAudio(head));
    } catch (err) {
      await d.repos.audioUploads.transition(row.id, "receiving", { status: "pending" });
      throw err;
    }
    try {
      const stored = await d.store.put(audioKey(row), body, { maxBytes: row.maxBytes });
      await d.repos.audioUploads.transition(row.id, "receiving", {
        status: "uploaded",
        bytes: stored.bytes,
        uploadedAt: d.now(),
      });
      return { status: "uploaded" as const, bytes: stored.bytes };
    } catch (err) {
      // Nothing was kept: the same URL may be used again until it expires.
      await d.repos.audioUploads.transition(row.id, "receiving", { status: "pending" });
      if (err instanceof AudioTooLargeError)
        throw new PayloadTooLargeError(`The file is larger than this upload's limit of ${row.maxBytes} bytes.`);
      if (err instanceof AudioIncompleteError) throw new BadRequestError(err.message);
      if (err instanceof StorageFullError) throw new InsufficientStorageError();
      throw err;
    }
  }

  /** A new upload of the caller's, waiting for its bytes. */
  async function newUpload(p: Principal, input: { fileExtension: string; duration: number }) {
    const extension = input.fileExtension.replace(/^\./, "").toLowerCase();
    const contentType = (AUDIO_CONTENT_TYPES as Record<string, string>)[extension];
    if (!contentType)
      throw new BadRequestError(`fileExtension: must be one of ${Object.keys(AUDIO_CONTENT_TYPES).join(", ")}.`);
    const t = d.now();
    const row: AudioUploadRow = {
      id: `upl_${randomBytes(16).toString("base64url")}`,
      workspaceId: p.workspaceId,
      userId: p.userId,
      extension,
      contentType,
      maxBytes: d.maxUploadBytes,
      declaredDurationSec: Math.ceil(input.duration),
      status: "pending",
      bytes: null,
      noteId: null,
      expiresAt: t + UPLOAD_URL_TTL_MS,
      createdAt: t,
      uploadedAt: null,
    };
    await d.repos.audioUploads.insert(row);
    return row;
  }

  return {
    /**
     * With a store that presigns (S3), the URL goes straight to the bucket; `via:
     * "server"` asks for this server's own upload route instead (the web app, whose
     * pages may only talk to their own origin).
     */
    async createUploadUrl(
      p: Principal,
      input: { fileExtension: string; duration: number },
      opts: { via?: "store" | "server" } = {},
    ) {
      const row = await newUpload(p, input);
      const { contentType } = row;
      const expires = Math.floor(row.expiresAt / 1000);
      const presignedUrl =
        d.store.presignPut && opts.via !== "server"
          ? await d.store.presignPut(audioKey(row), { contentType, expiresInSec: UPLOAD_URL_TTL_MS / 1000 })
          : `${d.publicUrl}/uploads/${row.id}?expires=${expires}&sig=${d.secrets.sign(signedFields(row, expires))}`;
      return {
        presignedUrl,
        audioUrl: `${AUDIO_URL_PREFIX}${row.id}`,
        contentType,
      };
    },

    /** Handles PUT presignedUrl. Checks come before a single byte is stored. */
    async receive(input: {
      uploadId: string;
      expires: string | undefined;
      sig: string | undefined;
      contentType: string | undefined;
      contentLength: string | undefined;
      body: Readable;
    }) {
      const found = await d.repos.audioUploads.get(input.uploadId);
      // A retry right after a cut connection: the cut one is put back first (a moment).
      const row = found && (await settled(found, RECEIVE_SETTLE_MS));
      const expires = Number(input.expires);
      // A missing upload and a bad signature read the same: nobody learns which ids exist.
      if (!row || !input.sig || !Number.isInteger(expires) || !d.secrets.verify(signedFields(row, expires), input.sig))
        throw new ForbiddenError("This upload URL is not valid: its signature does not match. Ask for a new one.");
      if (expires * 1000 < d.now() || row.expiresAt < d.now())
        throw new ForbiddenError("This upload URL has expired (they last 10 minutes). Ask for a new one.");
      if (row.status === "receiving")
        throw new ConflictError(
          "This upload URL is receiving an upload at this moment. If that one was cut off, retry in a few seconds, once the server has let it go.",
          undefined,
          RECEIVE_RETRY_SEC,
        );
      if (row.status !== "pending")
        throw new ConflictError("This upload URL has already been used; each accepts one upload. Ask for a new one.");
      const given = (input.contentType ?? "").split(";")[0].trim().toLowerCase();
      if (given !== row.contentType)
        throw new UnsupportedMediaTypeError(
          `Content-Type must be ${row.contentType} for this upload, got ${given || "none"}.`,
        );
      if (input.contentLength !== undefined && Number(input.contentLength) > row.maxBytes)
        throw new PayloadTooLargeError(`The file is larger than this upload's limit of ${row.maxBytes} bytes.`);
      return await keep(row, input.body);
    },

    /**
     * A recording this server reads itself (a watched folder's file), kept as an upload
     * would be, with the same checks: its audioUrl, for a note.
     */
    async keepFile(p: Principal, input: { fileExtension: string; duration: number; body: Readable }) {
      const row = await newUpload(p, input);
      await keep(row, input.body);
      return { audioUrl: `${AUDIO_URL_PREFIX}${row.id}` };
    },

    /**
     * A note made from a transcript made elsewhere (an import), with its recording
     * attached for playback: the transcript is kept as given, and summarised; the
     * recording is not transcribed again (reprocessing would).
     */
    async createNoteWithRecording(p: Principal, input: NoteCreateInput & { audioUrl: string }) {
      const upload = await claimable(p, input.audioUrl);
      // Taken first, so that two requests cannot both attach it; given back if the note is refused.
      // (Not one transaction: the note is read back once it is committed, on any connection.)
      if (!(await d.repos.audioUploads.transition(upload.id, "uploaded", { status: "used" })))
        throw new ConflictError("audioUrl: this recording already made a note.");
      try {
        const note = await d.notes.create(p, input, { uploadId: upload.id });
        await d.repos.audioUploads.transition(upload.id, "used", { noteId: note.id });
        return note;
      } catch (err) {
        await d.repos.audioUploads.transition(upload.id, "used", { status: "uploaded" });
        throw err;
      }
    },

    async createNoteFromAudio(
      p: Principal,
      input: {
        audioUrl: string;
        title?: string;
        calendarEventId?: string;
        folderId?: string;
        participants?: Partial<ParticipantValue>[];
        channels?: readonly ["me", "others"];
      },
    ) {
      const upload = await claimable(p, input.audioUrl);
      return await d.repos.transaction(async () => {
        if (!(await d.repos.audioUploads.transition(upload.id, "uploaded", { status: "used" })))
          throw new ConflictError("audioUrl: this recording already made a note.");
        const note = await d.notes.createFromAudio(p, {
          title: input.title,
          calendarEventId: input.calendarEventId,
          folderId: input.folderId,
          participants: input.participants,
          channels: input.channels,
          audio: { kind: "upload", id: upload.id },
          declaredDurationSec: upload.declaredDurationSec,
        });
        await d.repos.audioUploads.transition(upload.id, "used", { noteId: note.id });
        return { noteId: note.id };
      });
    },
  };
}

export type UploadService = ReturnType<typeof createUploadService>;

/**
 * The first `n` bytes of a stream (fewer if it ends first), left in place: they are
 * put back, so whoever reads the stream next gets it whole.
 */
async function peekHead(body: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < n) {
    const chunk = body.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    if (body.readableEnded || body.destroyed) break;
    await new Promise<void>((resolve) => {
      const done = () => {
        body.off("readable", done).off("end", done).off("error", done).off("close", done);
        resolve();
      };
      body.on("readable", done).on("end", done).on("error", done).on("close", done);
    });
    if (body.errored) break;
  }
  const head = Buffer.concat(chunks);
  if (head.length) body.unshift(head);
  return head.subarray(0, n);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
