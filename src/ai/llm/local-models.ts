// Small instruction models in GGUF for the local engine: a catalog, where they live
// (<data dir>/models/llm), and their download with the SHA-256 the host publishes.
import fs from "node:fs";
import path from "node:path";
import { downloadVerified, ModelError, modelsDir, type PullProgress } from "../models.js";

export interface LlmModelInfo {
  name: string;
  file: string;
  /** Where it is published (Hugging Face, which publishes each file's SHA-256). */
  url: string;
  /** Approximate, for the list; the download reports the real size. */
  sizeMb: number;
  licence: string;
}

export const LLM_MODELS: LlmModelInfo[] = [
  {
    name: "qwen2.5-1.5b",
    file: "qwen2.5-1.5b-instruct-q4_k_m.gguf",
    url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    sizeMb: 1120,
    licence: "Apache-2.0",
  },
  {
    name: "qwen3-1.7b",
    file: "Qwen3-1.7B-Q8_0.gguf",
    url: "https://huggingface.co/Qwen/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q8_0.gguf",
    sizeMb: 1830,
    licence: "Apache-2.0",
  },
  {
    name: "gemma-3-1b",
    file: "gemma-3-1b-it-Q4_K_M.gguf",
    url: "https://huggingface.co/ggml-org/gemma-3-1b-it-GGUF/resolve/main/gemma-3-1b-it-Q4_K_M.gguf",
    sizeMb: 810,
    licence: "Gemma Terms of Use",
  },
];
export const DEFAULT_LLM_MODEL = "qwen2.5-1.5b";

export const llmModelsDir = (dataDir: string) => path.join(modelsDir(dataDir), "llm");

export function findLlmModel(name: string): LlmModelInfo {
  const m = LLM_MODELS.find((x) => x.name === name);
  if (!m)
    throw new ModelError(
      `Unknown language model "${name}"; choose one of ${LLM_MODELS.map((x) => x.name).join(", ")}.`,
    );
  return m;
}

/** The catalog model in this data dir (the default first), else null. */
export function installedLlm(dataDir: string): string | null {
  for (const m of [findLlmModel(DEFAULT_LLM_MODEL), ...LLM_MODELS]) {
    const f = path.join(llmModelsDir(dataDir), m.file);
    if (fs.existsSync(f)) return f;
  }
  return null;
}

/** Downloads a catalog model (from `mirror`/<file> when a mirror is set). */
export async function pullLlmModel(
  dataDir: string,
  name: string,
  o: { mirror?: string; onProgress?: PullProgress; signal?: AbortSignal } = {},
): Promise<string> {
  const m = findLlmModel(name);
  const url = o.mirror ? `${o.mirror.replace(/\/+$/, "")}/${m.file}` : m.url;
  const r = await downloadVerified(url, path.join(llmModelsDir(dataDir), m.file), {
    signal: o.signal,
    onProgress: o.onProgress,
    label: `the language model ${m.name}`,
    otherwise: `Download ${m.file} by other means and pass it with --llm-model-path, or set NOTULA_MODELS_URL to a mirror.`,
  });
  return r.path;
}
