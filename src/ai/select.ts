// Chooses the engines the config asks for, or what this machine has when it says "auto".
import { withOfflineFallback } from "./summarization/summarizer.js";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config/schema.js";
import { createExtractiveSummarizer } from "./summarization/extractive.js";
import { createChatSummarizer } from "./summarization/chat-summarizer.js";
import { createChatClient, type ChatModel } from "./llm/chat.js";
import { llamaBindingPath, type LocalLlm } from "./llm/local-llama.js";
import { LocalModelError } from "./llm/local-model-error.js";
import { installedLlm } from "./llm/local-models.js";
import { createExtractiveAnswerer, createLlmAnswerer, type Answerer } from "./ask/answerers.js";
import type { Summarizer } from "./summarization/summarizer.js";
import { EngineConfigError, type SpeechToText } from "./transcription/engine.js";
import { createOpenAiTranscriber } from "./transcription/openai.js";
import { createSphinxTranscriber, sphinxAvailable } from "./transcription/sphinx.js";
import { createWhisperTranscriber } from "./transcription/whisper.js";
import { installedModel } from "./models.js";
import { requireWhisperBinding, whisperBindingPath } from "./transcription/whisper-binding.js";
import type { WhisperHost } from "./transcription/whisper-host.js";
import { withVectorCache, type Embedder } from "./embeddings/embedder.js";
import { createLocalEmbedder } from "./embeddings/local.js";
import { createOpenAiEmbedder } from "./embeddings/openai.js";
import type { Outbound } from "../net/outbound.js";

export function selectTranscriber(
  c: Config["transcription"],
  out: Outbound,
  dataDir: string,
  whisperHost: WhisperHost | null,
): SpeechToText {
  const model = c.modelPath ?? installedModel(dataDir);
  // "auto" takes whisper only when it can run: a model without the binding is not an engine.
  const whisper = model !== null && whisperBindingPath() !== null && whisperHost !== null;
  const engine =
    c.engine === "auto" ? (c.url ? "openai" : whisper ? "whisper" : sphinxAvailable() ? "sphinx" : "none") : c.engine;
  switch (engine) {
    case "openai":
      if (!c.url)
        throw new EngineConfigError(
          "The openai transcription engine needs a server URL: set --stt-url or NOTULA_STT_URL (and NOTULA_STT_API_KEY).",
        );
      return createOpenAiTranscriber({ url: c.url, apiKey: c.apiKey, model: c.model, outbound: out });
    case "sphinx":
      return createSphinxTranscriber();
    case "whisper":
      if (!model)
        throw new EngineConfigError(
          "No whisper model is installed: run `notula models pull base.en`, or pass --model-path with a ggml model file.",
        );
      // Said when the engine is chosen, not when the first recording fails.
      requireWhisperBinding();
      if (!whisperHost) throw new EngineConfigError("The local whisper engine runs only in `notula serve`.");
      return createWhisperTranscriber({ modelPath: model, host: whisperHost });
    default:
      throw new EngineConfigError(
        "No speech-to-text engine is available: set --stt-url (an OpenAI-compatible transcription server such as https://api.openai.com/v1, with NOTULA_STT_API_KEY), run `notula models pull base.en` for the local whisper engine, or install pocketsphinx (Debian: apt-get install pocketsphinx pocketsphinx-en-us); then reprocess the note.",
      );
  }
}

/** The local model file this server would use: the configured one, else the one set up. */
export const localLlmFile = (c: Config["summarization"], dataDir: string): string | null =>
  c.modelPath ?? installedLlm(dataDir);

/**
 * The language model that writes notes and answers, or null for none (extracts and
 * quotes). "auto" takes a server when one is set, else the local model once both its
 * file and its engine are here.
 */
export function selectChatModel(
  c: Config["summarization"],
  out: Outbound,
  dataDir: string,
  local: LocalLlm | null,
): ChatModel | null {
  const file = localLlmFile(c, dataDir);
  const engine =
    c.engine === "auto"
      ? c.url
        ? "openai"
        : local && file && llamaBindingPath(dataDir)
          ? "local"
          : "extractive"
      : c.engine;
  switch (engine) {
    case "openai":
      if (!c.url)
        throw new EngineConfigError(
          "The openai language model engine needs a server URL: set it in Settings → AI, or --llm-url (NOTULA_LLM_URL).",
        );
      return createChatClient({
        url: c.url,
        apiKey: c.apiKey,
        model: c.model,
        contextTokens: c.contextTokens,
        timeoutMs: c.timeoutMs,
        outbound: out,
      });
    case "local":
      if (!file || !local || !fs.existsSync(file))
        throw new LocalModelError(
          `The local language model ${file ? `${path.basename(file)} is missing from this server` : "is not set up"}: set it up again in Settings → AI, or with \`notula models pull llm\``,
        );
      return local.chat(file);
    default:
      return null;
  }
}

/** The language model, else the offline extractive method (which shapes notes with the embedder when there is one). */
export function selectSummarizer(
  c: Config["summarization"],
  out: Outbound,
  dataDir: string,
  local: LocalLlm | null,
  embedder: Embedder | null = null,
): Summarizer {
  const model = selectChatModel(c, out, dataDir, local);
  const offline = createExtractiveSummarizer({ embedder });
  return model ? withOfflineFallback(createChatSummarizer(model), offline) : offline;
}

/** What answers questions about meetings: the same language model as the notes, else quotes of the moments. */
export function selectAnswerer(
  c: Config["summarization"],
  out: Outbound,
  dataDir: string,
  local: LocalLlm | null,
): Answerer {
  const model = selectChatModel(c, out, dataDir, local);
  return model ? createLlmAnswerer(model) : createExtractiveAnswerer();
}

/** The embedder the operator configured (its server is the operator's: `out` is theirs). */
export function selectEmbedder(c: Config["embeddings"], out: Outbound): Embedder | null {
  const engine = c.engine === "auto" ? (c.url ? "openai" : "local") : c.engine;
  if (engine === "none") return null;
  if (engine === "openai") {
    if (!c.url) throw new EngineConfigError("The openai embeddings engine needs NOTULA_EMBEDDINGS_URL.");
    return withVectorCache(
      createOpenAiEmbedder({
        url: c.url,
        apiKey: c.apiKey,
        model: c.model,
        dimensions: c.dimensions,
        minSimilarity: c.minSimilarity,
        outbound: out,
      }),
    );
  }
  return withVectorCache(createLocalEmbedder({ minSimilarity: c.minSimilarity }));
}

export interface EngineReport {
  /** What runs, e.g. "openai:whisper-1 at https://api.openai.com/v1", or "none". */
  using: string;
  /** Candidates passed over, each with why. */
  skipped: string[];
}

/** A URL as the log may show it: scheme, host and path, never credentials or a query. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, "")}`;
  } catch {
    return "(invalid URL)";
  }
}

/**
 * Which engines the server will use when a workspace sets none of its own, and why the
 * others were passed over: said once at start, so an operator sees at a glance why a
 * recording would be transcribed by pocketsphinx rather than whisper.
 */
export function describeEngines(
  c: Pick<Config, "transcription" | "summarization" | "embeddings" | "dataDir">,
): Record<"transcription" | "summaries" | "embeddings", EngineReport> {
  const t = c.transcription;
  const model = t.modelPath ?? installedModel(c.dataDir);
  const candidates: [string, string | null, string][] = [
    ["openai", t.url ? null : "no --stt-url", t.url ? `openai:${t.model} at ${shownUrl(t.url)}` : ""],
    [
      "whisper",
      !model
        ? "no model installed (notula models pull base.en)"
        : whisperBindingPath()
          ? null
          : `@napi-rs/whisper has no build for ${process.platform}-${process.arch}`,
      model ? `whisper:${model}` : "",
    ],
    ["sphinx", sphinxAvailable() ? null : "pocketsphinx is not installed", "sphinx:pocketsphinx"],
  ];
  const wanted = t.engine === "auto" ? candidates : candidates.filter(([name]) => name === t.engine);
  const chosen = wanted.find(([, missing]) => missing === null);
  const transcription: EngineReport = {
    using: chosen ? chosen[2] : "none",
    skipped: candidates
      .filter((cand) => cand !== chosen)
      .map(
        ([name, missing]) =>
          `${name}: ${missing ?? (t.engine === "auto" ? "a preferred engine is available" : `--stt-engine is ${t.engine}`)}`,
      ),
  };
  const s = c.summarization;
  const file = localLlmFile(s, c.dataDir);
  const localMissing = !file
    ? "no model set up (Settings → AI, or notula models pull llm)"
    : !llamaBindingPath(c.dataDir)
      ? "its engine (node-llama-cpp) is not installed"
      : null;
  const summaries: EngineReport =
    s.url && (s.engine === "auto" || s.engine === "openai")
      ? {
          using: `openai:${s.model} at ${shownUrl(s.url)}`,
          skipped: ["local, extractive: a model server is configured"],
        }
      : !localMissing && (s.engine === "auto" || s.engine === "local")
        ? { using: `local:${path.basename(file!)}`, skipped: ["openai: no --llm-url"] }
        : {
            using: "extractive (offline)",
            skipped: [
              `openai: ${s.url ? `--llm-engine is ${s.engine}` : "no --llm-url"}`,
              `local: ${localMissing ?? `--llm-engine is ${s.engine}`}`,
            ],
          };
  const e = c.embeddings;
  const engine = e.engine === "auto" ? (e.url ? "openai" : "local") : e.engine;
  const embeddings: EngineReport =
    engine === "none"
      ? { using: "none (meaning-based search is off)", skipped: ["NOTULA_EMBEDDINGS=none"] }
      : engine === "openai"
        ? {
            using: `openai:${e.model} at ${e.url ? shownUrl(e.url) : "(no URL)"}`,
            skipped: ["local: a server is configured"],
          }
        : { using: "local:use-lite-512 (bundled)", skipped: e.url ? [] : ["openai: no NOTULA_EMBEDDINGS_URL"] };
  return { transcription, summaries, embeddings };
}

/**
 * What decides whether a transcription configuration can work here: the settings (a key
 * by its digest only) and which local engines exist. A recording waiting for an engine is
 * tried again only once this changes, so a wrong key is not retried every minute.
 */
export function transcriptionFacts(c: Config["transcription"], dataDir: string): string {
  const model = c.modelPath ?? installedModel(dataDir);
  return JSON.stringify({
    engine: c.engine,
    url: c.url ?? null,
    model: c.model,
    key: c.apiKey ? createHash("sha256").update(c.apiKey).digest("hex").slice(0, 16) : null,
    whisperModel: model && fs.existsSync(model) ? model : null,
    whisperBinding: whisperBindingPath() !== null,
    sphinx: sphinxAvailable(),
  });
}
