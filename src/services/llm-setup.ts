// Setting up the local language model from the web app (or `notula models pull llm`):
// its engine (node-llama-cpp's CPU build) when missing, the GGUF file downloaded with its
// checksum verified, then one short answer from it in a child process, so that a file
// llama.cpp cannot run is refused now (and removed) rather than failing a meeting's
// notes, and can never take the server down with it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Principal } from "../core/principal.js";
import type { Logger } from "../core/logger.js";
import { importLlama, installLlamaBinding, llamaBindingPath } from "../ai/llm/local-llama.js";
import { checkGgufFile } from "../ai/llm/gguf-file.js";
import { LocalModelError } from "../ai/llm/local-model-error.js";
import { findLlmModel, llmModelsDir, pullLlmModel } from "../ai/llm/local-models.js";
import { createSetupRunner, type SpeechSetupState } from "./setup-runner.js";
import type { AiConfigService } from "./ai-config.js";
import { programPath } from "../ai/programs/index.js";

/** Checks the file, then loads the model in a child and has it write a few tokens; rejects with what went wrong. */
export async function checkLocalLlm(dataDir: string, file: string, signal?: AbortSignal): Promise<void> {
  const entry = llamaBindingPath(dataDir);
  if (!entry) throw new LocalModelError("The local language model's engine (node-llama-cpp) is not installed.");
  // A file that is not a GGUF, or is cut short, is named as such (llama.cpp would say only that it failed).
  await checkGgufFile(file, (await importLlama(dataDir)).readGgufFileInfo);
  const { pathToFileURL } = await import("node:url");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [programPath("llm-check.mjs")], {
      env: { ...process.env, NOTULA_LLAMA_ENTRY: pathToFileURL(entry).href, NOTULA_LLM_FILE: file },
      stdio: ["ignore", "pipe", "pipe"],
      signal,
      timeout: 300_000,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    child.on("error", (e) => reject(e));
    child.on("close", (code, sig) => {
      if (code === 0 && out.includes('"ok":true')) return resolve();
      let said: string | null = null;
      try {
        said = (JSON.parse(out.trim().split("\n").pop() ?? "") as { message?: string }).message ?? null;
      } catch {
        // It ended without saying: llama.cpp aborted, or node did.
      }
      const why =
        said ||
        err
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith("at "))
          .slice(-2)
          .join(" ") ||
        (sig ? `it was stopped by ${sig}` : `it exited with ${code}`);
      reject(new LocalModelError(`llama.cpp could not run ${path.basename(file)}: ${why.slice(0, 500)}`));
    });
  });
}

export type LlmSetupStep =
  { phase: "installing" } | { phase: "downloading"; received: number; total: number | null } | { phase: "checking" };

/** Installs the engine if missing, downloads the model if missing, and proves they run together. */
export async function setUpLocalLlm(
  dataDir: string,
  name: string,
  o: { mirror?: string; onStep?: (s: LlmSetupStep) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const info = findLlmModel(name); // an unknown name fails before anything is installed
  if (!llamaBindingPath(dataDir)) {
    o.onStep?.({ phase: "installing" });
    await installLlamaBinding(dataDir, { signal: o.signal });
  }
  let file = path.join(llmModelsDir(dataDir), info.file);
  if (!fs.existsSync(file)) {
    o.onStep?.({ phase: "downloading", received: 0, total: null });
    file = await pullLlmModel(dataDir, name, {
      mirror: o.mirror,
      signal: o.signal,
      onProgress: (received, total) => o.onStep?.({ phase: "downloading", received, total }),
    });
  }
  o.onStep?.({ phase: "checking" });
  try {
    await checkLocalLlm(dataDir, file, o.signal);
  } catch (err) {
    if (err instanceof LocalModelError) {
      await fs.promises.rm(file, { force: true });
      throw new LocalModelError(`${err.message}; the file was removed`);
    }
    throw err;
  }
  return file;
}

export function createLlmSetup(d: {
  dataDir: string;
  modelsUrl?: string;
  ai: Pick<AiConfigService, "useLocalLlm">;
  logger: Logger;
  /** Whether workspaces' admins may set up the local models (false: the operator's alone). */
  workspaceLocalModels?: boolean;
}) {
  const runner = createSetupRunner({
    what: "its local language model",
    logger: d.logger,
    workspaceLocalModels: d.workspaceLocalModels,
  });
  return {
    status: runner.status,
    settled: runner.settled,
    start: (p: Principal, model: string): SpeechSetupState => {
      findLlmModel(model);
      return runner.start(p, { phase: "installing", model }, async (update) => {
        await setUpLocalLlm(d.dataDir, model, {
          mirror: d.modelsUrl,
          onStep: (s) => update(s.phase === "downloading" ? s : { phase: s.phase }),
        });
        await d.ai.useLocalLlm(p);
      });
    },
  };
}

export type LlmSetup = ReturnType<typeof createLlmSetup>;
