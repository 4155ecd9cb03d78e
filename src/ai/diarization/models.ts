// The local speaker-separation models: pyannote's segmentation model (who speaks when)
// and NeMo's TitaNet-small speaker embeddings (whose voice), both as sherpa-onnx
// publishes them. They live in <data dir>/models/speakers and are downloaded with
// their SHA-256 checked, like the whisper models.
import fs from "node:fs";
import path from "node:path";
import { downloadVerified, modelsDir, type PullProgress } from "../models.js";

export interface SpeakerModelInfo {
  role: "segmentation" | "embedding";
  /** The name on disk and on a mirror (NOTULA_MODELS_URL). */
  file: string;
  /** Where it is published (Hugging Face, which publishes each file's SHA-256). */
  url: string;
  sizeMb: number;
}

export const SPEAKER_MODELS: SpeakerModelInfo[] = [
  {
    role: "segmentation",
    file: "pyannote-segmentation-3-0.onnx",
    url: "https://huggingface.co/csukuangfj/sherpa-onnx-pyannote-segmentation-3-0/resolve/main/model.onnx",
    sizeMb: 6,
  },
  {
    role: "embedding",
    file: "nemo_en_titanet_small.onnx",
    url: "https://huggingface.co/csukuangfj/speaker-embedding-models/resolve/main/nemo_en_titanet_small.onnx",
    sizeMb: 38,
  },
];

export interface SpeakerModelPaths {
  segmentation: string;
  embedding: string;
}

export const speakerModelsDir = (dataDir: string) => path.join(modelsDir(dataDir), "speakers");

export function speakerModelPaths(dataDir: string): SpeakerModelPaths {
  const at = (role: SpeakerModelInfo["role"]) =>
    path.join(speakerModelsDir(dataDir), SPEAKER_MODELS.find((m) => m.role === role)!.file);
  return { segmentation: at("segmentation"), embedding: at("embedding") };
}

/** The model files missing from this data dir (none when both are there). */
export function missingSpeakerModels(dataDir: string): string[] {
  const p = speakerModelPaths(dataDir);
  return [p.segmentation, p.embedding].filter((f) => !fs.existsSync(f)).map((f) => path.basename(f));
}

/**
 * Downloads both models (from `mirror`/<file> when a mirror is set), reporting the bytes
 * of both as one download. A file already there is kept.
 */
export async function pullSpeakerModels(
  dataDir: string,
  o: { mirror?: string; onProgress?: PullProgress; signal?: AbortSignal } = {},
): Promise<SpeakerModelPaths> {
  const total = SPEAKER_MODELS.reduce((n, m) => n + m.sizeMb * 1e6, 0);
  let before = 0;
  for (const m of SPEAKER_MODELS) {
    const target = path.join(speakerModelsDir(dataDir), m.file);
    if (!fs.existsSync(target)) {
      const url = o.mirror ? `${o.mirror.replace(/\/+$/, "")}/${m.file}` : m.url;
      const r = await downloadVerified(url, target, {
        signal: o.signal,
        label: `the speaker ${m.role} model`,
        otherwise: `Download ${m.file} by other means into ${speakerModelsDir(dataDir)}, or set NOTULA_MODELS_URL to a mirror.`,
        // The sizes above are approximate: the total grows to what has arrived, never below.
        onProgress: (received) => o.onProgress?.(before + received, Math.max(total, before + received)),
      });
      before += r.bytes;
    } else before += fs.statSync(target).size;
  }
  return speakerModelPaths(dataDir);
}
