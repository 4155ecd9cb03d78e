// Where the whisper.cpp binding comes from. It is not one of notula's own dependencies:
// its npm package pulls GPU builds of several hundred megabytes as optional packages.
// It is found beside notula (an install that added it), or in <data dir>/engines, where
// the server installs the CPU build alone when an admin asks for the local engine.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { EngineConfigError } from "./engine.js";

const BINDING = "@fugood/whisper.node";
/** The binding version installed on request; its CPU build is published at the same version. */
export const WHISPER_BINDING_VERSION = "1.1.3";
/** The CPU build for this platform (the binding loads it by this name). */
export const platformPackage = () => `@fugood/node-whisper-${process.platform}-${process.arch}`;

export const enginesDir = (dataDir: string) => path.join(dataDir, "engines");

type WhisperModule = typeof import("@fugood/whisper.node");

/** The binding's entry file as seen from `from` (a file or URL), when both it and this platform's native build resolve there. */
export function bindingIn(from: string): string | null {
  try {
    const entry = createRequire(from).resolve(BINDING);
    createRequire(entry).resolve(platformPackage());
    return entry;
  } catch {
    return null;
  }
}

/** The binding beside notula, else in the data dir's engines; null when neither has it. */
export function whisperBindingPath(dataDir: string): string | null {
  return bindingIn(import.meta.url) ?? bindingIn(path.join(enginesDir(dataDir), "package.json"));
}

export function loadWhisperBinding(dataDir: string): WhisperModule {
  const entry = whisperBindingPath(dataDir);
  if (!entry)
    throw new EngineConfigError(
      `The local whisper engine needs its binding (${BINDING} with ${platformPackage()}): set it up from the web app's settings, answer yes when \`notula serve\` offers it, or use an OpenAI-compatible server (--stt-url).`,
    );
  return createRequire(import.meta.url)(entry) as WhisperModule;
}

/** The npm beside this node, else the one on PATH. */
function npmCommand(): string {
  const beside = path.join(path.dirname(process.execPath), process.platform === "win32" ? "npm.cmd" : "npm");
  return fs.existsSync(beside) ? beside : "npm";
}

/**
 * Installs the binding's CPU build into <data dir>/engines with npm (from the registry
 * npm is configured for), leaving out the GPU builds. Resolves once it loads from there.
 */
export async function installWhisperBinding(
  dataDir: string,
  opts: { signal?: AbortSignal; npm?: string } = {},
): Promise<string> {
  const dir = enginesDir(dataDir);
  await fs.promises.mkdir(dir, { recursive: true });
  const args = [
    "install",
    "--prefix",
    dir,
    "--omit=optional",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `${BINDING}@${WHISPER_BINDING_VERSION}`,
    `${platformPackage()}@${WHISPER_BINDING_VERSION}`,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(opts.npm ?? npmCommand(), args, {
      stdio: ["ignore", "pipe", "pipe"],
      signal: opts.signal,
      shell: process.platform === "win32",
    });
    let text = "";
    child.stdout.on("data", (b: Buffer) => (text += b.toString()));
    child.stderr.on("data", (b: Buffer) => (text += b.toString()));
    child.on("error", (err) =>
      reject(new EngineConfigError(`Could not run npm to install the whisper engine: ${err.message}`)),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve(text)
        : reject(
            new EngineConfigError(
              `npm could not install the whisper engine (exit ${code}): ${text.trim().split("\n").slice(-3).join(" ") || "no output"}`,
            ),
          ),
    );
  });
  const entry = whisperBindingPath(dataDir);
  if (!entry)
    throw new EngineConfigError(
      `npm finished but the whisper engine does not load from ${dir} (${output.trim() || "no output"}); ${platformPackage()} may not exist for this platform.`,
    );
  return entry;
}
