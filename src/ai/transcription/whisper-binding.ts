// Where the whisper.cpp binding comes from: @napi-rs/whisper, a dependency of notula whose
// prebuilt build for this platform npm installs beside it (Linux x64, macOS). Where npm
// has no build for the platform, the local engine is not offered.
import { createRequire } from "node:module";
import { EngineConfigError } from "./engine.js";

const BINDING = "@napi-rs/whisper";

let found: string | null | undefined;

/** The binding's entry file, when it and this platform's build resolve; else null. Looked up once: it is installed with notula. */
export function whisperBindingPath(): string | null {
  if (found === undefined) found = lookUp();
  return found;
}

function lookUp(): string | null {
  try {
    const entry = createRequire(import.meta.url).resolve(BINDING);
    // The entry loads the platform's build by its own rules; resolving it here says whether it is installed.
    createRequire(entry).resolve(`${BINDING}-${platformSuffix()}`);
    return entry;
  } catch {
    return null;
  }
}

/** The name napi-rs gives this platform's build (linux-x64-gnu, darwin-arm64, …). */
function platformSuffix(): string {
  const libc =
    process.platform === "linux"
      ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })?.header?.glibcVersionRuntime
        ? "-gnu"
        : "-musl"
      : "";
  return `${process.platform}-${process.arch}${libc}`;
}

/** The binding's entry file, or why the local engine cannot run on this machine. */
export function requireWhisperBinding(): string {
  const entry = whisperBindingPath();
  if (!entry)
    throw new EngineConfigError(
      `The local whisper engine has no build for this platform (${process.platform}-${process.arch}): use an OpenAI-compatible server (--stt-url), or pocketsphinx.`,
    );
  return entry;
}
