// The filesystem audio store: <data dir>/audio/<key>. Uploads stream into
// audio/.incoming/ and are renamed into place once complete and flushed to disk.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import {
  AudioIncompleteError,
  AudioTooLargeError,
  isDiskFull,
  StorageFullError,
  type AudioStore,
} from "./audio-store.js";

const KEY = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.[a-z0-9]{1,8}$/;

/**
 * Copies `body` into `out` with backpressure, counting bytes against `maxBytes`.
 * Unlike stream.pipeline, a failure does not destroy `body`: when it is the HTTP
 * request, its socket must live on to carry the error response (the server drains
 * or closes it afterwards). One hop, no Transform: this is the upload's hot loop.
 */
function streamInto(body: Readable, out: fs.WriteStream, maxBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let bytes = 0;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      body.off("data", onData);
      body.pause();
      out.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) return fail(new AudioTooLargeError(maxBytes));
      if (!out.write(chunk)) {
        body.pause();
        out.once("drain", () => settled || body.resume());
      }
    };
    body.on("data", onData);
    body.once("end", () => {
      if (!settled) out.end();
    });
    body.once("error", (e) => fail(new AudioIncompleteError(`The upload broke off: ${e.message}`)));
    body.once("close", () => {
      if (!body.readableEnded) fail(new AudioIncompleteError("The upload ended before the whole body arrived."));
    });
    out.once("error", fail);
    out.once("finish", () => {
      if (settled) return;
      settled = true;
      resolve(bytes);
    });
  });
}

export function createFsAudioStore(root: string): AudioStore & { sweepIncoming(): void } {
  const incoming = path.join(root, ".incoming");
  fs.mkdirSync(incoming, { recursive: true });

  function fileOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`Invalid audio key ${key}.`);
    return path.join(root, key);
  }

  return {
    async put(key, body, { maxBytes }) {
      const target = fileOf(key);
      const temp = path.join(incoming, `${randomBytes(12).toString("hex")}.part`);
      const out = fs.createWriteStream(temp, { flags: "wx", mode: 0o600, highWaterMark: 4 * 1024 * 1024 });
      try {
        const bytes = await streamInto(body, out, maxBytes);
        const fd = await fsp.open(temp, "r");
        try {
          await fd.sync();
        } finally {
          await fd.close();
        }
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.rename(temp, target);
        return { bytes };
      } catch (err) {
        await fsp.rm(temp, { force: true });
        if (err instanceof AudioTooLargeError || err instanceof AudioIncompleteError) throw err;
        if (isDiskFull(err)) throw new StorageFullError(`No space left to store the recording in ${root}.`);
        throw new AudioIncompleteError(`The upload did not complete: ${(err as Error).message}`);
      }
    },
    async exists(key) {
      return fs.existsSync(fileOf(key));
    },
    async localFile(key) {
      return { path: fileOf(key), release: async () => {} };
    },
    async size(key) {
      try {
        return (await fsp.stat(fileOf(key))).size;
      } catch {
        return null;
      }
    },
    read(key, range) {
      return fs.createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async *list() {
      // Two levels, workspace/file, as keys are made; the .incoming directory is not a workspace.
      for (const workspace of await fsp.readdir(root, { withFileTypes: true })) {
        if (!workspace.isDirectory() || workspace.name.startsWith(".")) continue;
        for (const file of await fsp.readdir(path.join(root, workspace.name), { withFileTypes: true })) {
          const key = `${workspace.name}/${file.name}`;
          if (!file.isFile() || !KEY.test(key)) continue;
          const stat = await fsp.stat(path.join(root, key)).catch(() => null);
          if (stat) yield { key, modifiedAt: stat.mtimeMs };
        }
      }
    },
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
    async check() {
      await fsp.access(incoming, fs.constants.W_OK);
    },
    /** Removes partial uploads left by a crash. */
    sweepIncoming() {
      for (const f of fs.readdirSync(incoming)) fs.rmSync(path.join(incoming, f), { force: true });
    },
  };
}
