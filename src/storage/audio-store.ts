// Where uploaded recordings live. One interface, one file per backend: the
// filesystem store below the data dir (the default) and an S3-compatible bucket.
import type { Readable } from "node:stream";

export interface StoredAudio {
  bytes: number;
}

export interface LocalAudioFile {
  /** A path that ffmpeg can read. */
  path: string;
  /** Frees whatever was made to provide the path (a downloaded copy, say). */
  release(): Promise<void>;
}

export interface AudioStore {
  /**
   * Streams `body` into the store under `key`, atomically: the object appears only
   * once the whole body has arrived. An error, an abort or more than `maxBytes`
   * leaves nothing behind.
   */
  put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredAudio>;
  exists(key: string): Promise<boolean>;
  localFile(key: string): Promise<LocalAudioFile>;
  /** The object's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Streams bytes `start` to `end` (inclusive) of the object; the whole of it without a range. */
  read(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be used (for /readyz and the start-up check). */
  check(): Promise<void>;
  /**
   * A URL that accepts one PUT of the object straight into the store, with this
   * Content-Type only, for `expiresInSec`. Stores that cannot presign leave it out and
   * uploads come through this server instead.
   */
  presignPut?(key: string, opts: { contentType: string; expiresInSec: number }): Promise<string>;
  /**
   * Every stored object, for the sweep that removes files no upload refers to. Stores
   * whose listing is costly (a bucket) leave it out: lifecycle rules do that job there.
   */
  list?(): AsyncIterable<{ key: string; modifiedAt: number }>;
}

export class AudioTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The upload is larger than ${maxBytes} bytes.`);
  }
}

/** The body ended or broke before it was complete. */
export class AudioIncompleteError extends Error {}

/** The store has no room left (ENOSPC, a quota): nothing was kept. */
export class StorageFullError extends Error {}

export const isDiskFull = (err: unknown) =>
  ["ENOSPC", "EDQUOT", "SQLITE_FULL"].includes((err as { code?: string } | null)?.code ?? "");
