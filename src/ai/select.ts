// Chooses the engines the config asks for, or what this machine has when it says "auto".
import type { Config } from "../config/schema.js";
import { createExtractiveSummarizer } from "./summarization/extractive.js";
import { createOpenAiSummarizer } from "./summarization/openai-chat.js";
import type { Summarizer } from "./summarization/summarizer.js";
import { EngineConfigError, type SpeechToText } from "./transcription/engine.js";
import { createOpenAiTranscriber } from "./transcription/openai.js";
import { createSphinxTranscriber, sphinxAvailable } from "./transcription/sphinx.js";
import { createWhisperTranscriber } from "./transcription/whisper.js";
import { installedModel } from "./models.js";
import type { Embedder } from "./embeddings/embedder.js";
import { createLocalEmbedder } from "./embeddings/local.js";
import { createOpenAiEmbedder } from "./embeddings/openai.js";

export function selectTranscriber(c: Config["transcription"], dataDir: string): SpeechToText {
  const model = c.modelPath ?? installedModel(dataDir);
  const engine = c.engine === "auto" ? (c.url ? "openai" : model ? "whisper" : sphinxAvailable() ? "sphinx" : "none") : c.engine;
  switch (engine) {
    case "openai":
      if (!c.url) throw new EngineConfigError("The openai transcription engine needs a server URL: set --stt-url or NOTULA_STT_URL (and NOTULA_STT_API_KEY).");
      return createOpenAiTranscriber({ url: c.url, apiKey: c.apiKey, model: c.model });
    case "sphinx":
      return createSphinxTranscriber();
    case "whisper":
      if (!model) throw new EngineConfigError("No whisper model is installed: run `notula models pull base.en`, or pass --model-path with a ggml model file.");
      return createWhisperTranscriber({ modelPath: model });
    default:
      throw new EngineConfigError(
        "No speech-to-text engine is available: set --stt-url (an OpenAI-compatible transcription server such as https://api.openai.com/v1, with NOTULA_STT_API_KEY), run `notula models pull base.en` for the local whisper engine, or install pocketsphinx (Debian: apt-get install pocketsphinx pocketsphinx-en-us); then reprocess the note.",
      );
  }
}

/** The configured model, else the offline extractive method (which shapes notes with the embedder when there is one). */
export function selectSummarizer(c: Config["summarization"], embedder: Embedder | null = null): Summarizer {
  return c.url
    ? createOpenAiSummarizer({ url: c.url, apiKey: c.apiKey, model: c.model, contextTokens: c.contextTokens, timeoutMs: c.timeoutMs })
    : createExtractiveSummarizer({ embedder });
}

export function selectEmbedder(c: Config["embeddings"]): Embedder | null {
  const engine = c.engine === "auto" ? (c.url ? "openai" : "local") : c.engine;
  if (engine === "none") return null;
  if (engine === "openai") {
    if (!c.url) throw new EngineConfigError("The openai embeddings engine needs NOTULA_EMBEDDINGS_URL.");
    return createOpenAiEmbedder({ url: c.url, apiKey: c.apiKey, model: c.model, dimensions: c.dimensions });
  }
  return createLocalEmbedder();
}
