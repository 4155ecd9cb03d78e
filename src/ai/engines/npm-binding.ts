// Native engines that are not notula's own dependencies (their npm packages pull GPU
// builds of several hundred megabytes as optional packages): each is found beside
// notula (an install that added it), or in <data dir>/engines, where the server installs
// the CPU build alone, with npm, when an admin asks for that engine.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { EngineConfigError } from "../transcription/engine.js";

export const enginesDir = (dataDir: string) => path.join(dataDir, "engines");

export interface NpmBinding {
  /** What to call it in messages, e.g. "the whisper engine". */
  label: string;
  /** The package imported. */
  name: string;
  /** This platform's native build, which must resolve from the package too. */
  platformPackage: string;
  version: string;
  /** Whether npm may skip the package's install scripts (a binding whose build is prebuilt). */
  ignoreScripts?: boolean;
}

/** The binding's entry file as seen from `from` (a file or URL), when both it and this platform's native build resolve there. */
export function bindingIn(b: Pick<NpmBinding, "name" | "platformPackage">, from: string): string | null {
  try {
    const entry = createRequire(from).resolve(b.name);
    createRequire(entry).resolve(b.platformPackage);
    return entry;
  } catch {
    return null;
  }
}

/** The binding beside notula, else in the data dir's engines; null when neither has it. */
export function bindingPath(b: NpmBinding, dataDir: string): string | null {
  return bindingIn(b, import.meta.url) ?? bindingIn(b, path.join(enginesDir(dataDir), "package.json"));
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
export async function installBinding(
  b: NpmBinding,
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
    ...(b.ignoreScripts ? ["--ignore-scripts"] : []),
    `${b.name}@${b.version}`,
    `${b.platformPackage}@${b.version}`,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(opts.npm ?? npmCommand(), args, {
      stdio: ["ignore", "pipe", "pipe"],
      signal: opts.signal,
      shell: process.platform === "win32",
    });
    let text = "";
    child.stdout.on("data", (c: Buffer) => (text += c.toString()));
    child.stderr.on("data", (c: Buffer) => (text += c.toString()));
    child.on("error", (err) =>
      reject(new EngineConfigError(`Could not run npm to install ${b.label}: ${err.message}`)),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve(text)
        : reject(
            new EngineConfigError(
              `npm could not install ${b.label} (exit ${code}): ${text.trim().split("\n").slice(-3).join(" ") || "no output"}`,
            ),
          ),
    );
  });
  const entry = bindingPath(b, dataDir);
  if (!entry)
    throw new EngineConfigError(
      `npm finished but ${b.label} does not load from ${dir} (${output.trim() || "no output"}); ${b.platformPackage} may not exist for this platform.`,
    );
  return entry;
}
