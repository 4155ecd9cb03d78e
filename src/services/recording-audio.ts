// A stopped recording's joined pieces, stored so that players can use them. A browser's
// recording (WebM, MP4) is a stream with no length and no seek index: it is copied into
// its container again with both (no re-encoding), so that players show how long it is
// and seek in it. Without ffmpeg, or when it fails, the recording is kept as it came.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MissingProgramError, remuxSeekable, STREAMED_CONTAINERS, UndecodableAudioError } from "../ai/audio.js";
import type { AudioStore } from "../storage/audio-store.js";

type Streamed = (typeof STREAMED_CONTAINERS)[number];

export async function storeSeekable(
  store: AudioStore,
  key: string,
  format: string,
  joined: Readable,
  maxBytes: number,
) {
  if (!(STREAMED_CONTAINERS as readonly string[]).includes(format)) return store.put(key, joined, { maxBytes });
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "notula-join-"));
  try {
    const raw = path.join(dir, `joined.${format}`);
    const seekable = path.join(dir, `seekable.${format}`);
    await pipeline(joined, fs.createWriteStream(raw));
    const remuxed = await remuxSeekable(raw, seekable, format as Streamed).then(
      () => true,
      (err: unknown) => {
        if (err instanceof MissingProgramError || err instanceof UndecodableAudioError) return false;
        throw err;
      },
    );
    return await store.put(key, fs.createReadStream(remuxed ? seekable : raw), { maxBytes });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
