// Where the whisper.cpp binding comes from: beside notula, or installed on request into
// <data dir>/engines (see engines/npm-binding.ts for why it is not a dependency).
import { createRequire } from "node:module";
import { EngineConfigError } from "./engine.js";
import { bindingIn as bindingFrom, bindingPath, installBinding, type NpmBinding } from "../engines/npm-binding.js";

export { enginesDir } from "../engines/npm-binding.js";

const BINDING = "@fugood/whisper.node";
/** The binding version installed on request; its CPU build is published at the same version. */
export const WHISPER_BINDING_VERSION = "1.1.3";
/** The CPU build for this platform (the binding loads it by this name). */
export const platformPackage = () => `@fugood/node-whisper-${process.platform}-${process.arch}`;

const whisper = (): NpmBinding => ({
  label: "the whisper engine",
  name: BINDING,
  platformPackage: platformPackage(),
  version: WHISPER_BINDING_VERSION,
});

type WhisperModule = typeof import("@fugood/whisper.node");

/** The binding's entry file as seen from `from` (a file or URL), when both it and this platform's native build resolve there. */
export const bindingIn = (from: string): string | null => bindingFrom(whisper(), from);

/** The binding beside notula, else in the data dir's engines; null when neither has it. */
export const whisperBindingPath = (dataDir: string): string | null => bindingPath(whisper(), dataDir);

export function loadWhisperBinding(dataDir: string): WhisperModule {
  const entry = whisperBindingPath(dataDir);
  if (!entry)
    throw new EngineConfigError(
      `The local whisper engine needs its binding (${BINDING} with ${platformPackage()}): set it up from the web app's settings, answer yes when \`notula serve\` offers it, or use an OpenAI-compatible server (--stt-url).`,
    );
  return createRequire(import.meta.url)(entry) as WhisperModule;
}

/** Installs the binding's CPU build into <data dir>/engines; resolves once it loads from there. */
export const installWhisperBinding = (dataDir: string, opts: { signal?: AbortSignal; npm?: string } = {}) =>
  installBinding(whisper(), dataDir, opts);
