// whisper.cpp models: a catalog, where they live (<data dir>/models), and a download
// that streams to disk, reports progress and checks the SHA-256 the server publishes.
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type { Response } from "undici";
import { createNet, type Outbound } from "../net/outbound.js";

export const DEFAULT_MODELS_URL = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";

export interface ModelInfo {
  name: string;
  file: string;
  /** Approximate, for the list; the download reports the real size. */
  sizeMb: number;
  languages: "english" | "multilingual";
}

export const MODELS: ModelInfo[] = [
  { name: "tiny.en", file: "ggml-tiny.en.bin", sizeMb: 75, languages: "english" },
  { name: "tiny", file: "ggml-tiny.bin", sizeMb: 75, languages: "multilingual" },
  { name: "base.en", file: "ggml-base.en.bin", sizeMb: 142, languages: "english" },
  { name: "base", file: "ggml-base.bin", sizeMb: 142, languages: "multilingual" },
  { name: "small.en", file: "ggml-small.en.bin", sizeMb: 466, languages: "english" },
  { name: "small", file: "ggml-small.bin", sizeMb: 466, languages: "multilingual" },
  { name: "medium.en", file: "ggml-medium.en.bin", sizeMb: 1500, languages: "english" },
  { name: "medium", file: "ggml-medium.bin", sizeMb: 1500, languages: "multilingual" },
  { name: "large-v3-turbo", file: "ggml-large-v3-turbo.bin", sizeMb: 1600, languages: "multilingual" },
];
export const DEFAULT_MODEL = "base.en";

export class ModelError extends Error {}

export const modelsDir = (dataDir: string) => path.join(dataDir, "models");

export function findModel(name: string): ModelInfo {
  const m = MODELS.find((x) => x.name === name);
  if (!m) throw new ModelError(`Unknown model "${name}"; choose one of ${MODELS.map((x) => x.name).join(", ")}.`);
  return m;
}

export function modelFile(dataDir: string, name: string): string {
  return path.join(modelsDir(dataDir), findModel(name).file);
}

/** The first catalog model present in the data dir, preferring the default. */
export function installedModel(dataDir: string): string | null {
  for (const m of [findModel(DEFAULT_MODEL), ...MODELS]) {
    const f = path.join(modelsDir(dataDir), m.file);
    if (fs.existsSync(f)) return f;
  }
  return null;
}

export function listModels(dataDir: string) {
  return MODELS.map((m) => {
    const file = path.join(modelsDir(dataDir), m.file);
    const installed = fs.existsSync(file);
    return { ...m, installed, path: installed ? file : null, bytes: installed ? fs.statSync(file).size : null };
  });
}

export interface PullProgress {
  (received: number, total: number | null): void;
}

/** The SHA-256 a model host publishes for a file (Hugging Face: X-Linked-Etag on LFS files). */
function publishedSha256(headers: Headers): string | null {
  for (const h of ["x-linked-etag", "x-checksum-sha256", "etag"]) {
    const v = headers.get(h)?.replace(/^W\//, "").replace(/"/g, "").trim();
    if (v && /^[0-9a-f]{64}$/i.test(v)) return v.toLowerCase();
  }
  return null;
}

export interface DownloadOptions {
  onProgress?: PullProgress;
  signal?: AbortSignal;
  allowUnverified?: boolean;
  /** What to call the file in messages (its name, else the file's). */
  label?: string;
  /** How to get the file otherwise, said when the host cannot be reached. */
  otherwise?: string;
  /** The way out; the operator's (models come from the server's own --models-url) unless given. */
  outbound?: Outbound;
}

/**
 * Streams `url` to `target` through a `.part` file, with progress, and keeps it only when
 * its SHA-256 is the one the host publishes (or, with allowUnverified, when it publishes none).
 */
export async function downloadVerified(
  url: string,
  target: string,
  opts: DownloadOptions = {},
): Promise<{ path: string; bytes: number; sha256: string; verified: boolean }> {
  const label = opts.label ?? path.basename(target);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  let res: Response;
  try {
    const out = opts.outbound ?? createNet().for("models", "operator");
    res = await out.fetch(url, { redirect: "follow", signal: opts.signal });
  } catch (err) {
    throw new ModelError(
      `Could not reach ${new URL(url).host} to download ${label} (${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}).` +
        (opts.otherwise ? ` ${opts.otherwise}` : ""),
    );
  }
  if (!res.ok || !res.body) throw new ModelError(`Downloading ${url} failed: the server answered ${res.status}.`);
  const expected = publishedSha256(res.headers);
  if (!expected && !opts.allowUnverified)
    throw new ModelError(
      `${url} publishes no SHA-256 checksum, so the download cannot be verified; pass --no-verify to accept it anyway.`,
    );
  const total = Number(res.headers.get("content-length")) || null;
  const hash = createHash("sha256");
  let received = 0;
  const temp = `${target}.part`;
  const meter = new Transform({
    transform(chunk: Buffer, _e, done) {
      hash.update(chunk);
      received += chunk.length;
      opts.onProgress?.(received, total);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(res.body as import("node:stream/web").ReadableStream),
      meter,
      fs.createWriteStream(temp),
    );
    if (total !== null && received !== total)
      throw new ModelError(`The download ended early: ${received} of ${total} bytes.`);
    const sha256 = hash.digest("hex");
    if (expected && sha256 !== expected)
      throw new ModelError(
        `Checksum mismatch for ${path.basename(target)}: expected ${expected}, got ${sha256}. The file was discarded.`,
      );
    await fsp.rename(temp, target);
    return { path: target, bytes: received, sha256, verified: Boolean(expected) };
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err instanceof ModelError
      ? err
      : new ModelError(`Downloading ${path.basename(target)} failed: ${(err as Error).message}`);
  }
}

export async function pullModel(
  dataDir: string,
  name: string,
  opts: { baseUrl?: string; onProgress?: PullProgress; signal?: AbortSignal; allowUnverified?: boolean } = {},
): Promise<{ path: string; bytes: number; sha256: string; verified: boolean }> {
  const model = findModel(name);
  const url = `${(opts.baseUrl ?? DEFAULT_MODELS_URL).replace(/\/+$/, "")}/${model.file}`;
  return downloadVerified(url, path.join(modelsDir(dataDir), model.file), {
    ...opts,
    label: model.name,
    otherwise: `Download ${model.file} by other means and pass it with --model-path, or set NOTULA_MODELS_URL to a mirror.`,
  });
}
