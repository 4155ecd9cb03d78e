// The local language model: a GGUF file run in this process by llama.cpp, through
// node-llama-cpp (installed on request, like the whisper binding). One model is loaded
// at a time and kept loaded; it answers one request at a time, because on a CPU two at
// once each take twice as long, and the others wait in line, told their place.
//
// Small models loop and wander, so it writes greedily (the same meeting gives the same
// note) with a repetition penalty, and a note's sections are held to the template by a
// JSON-schema grammar (sections-grammar.ts). Generation runs on llama.cpp's own threads:
// the event loop only hands tokens on.
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { bindingPath, installBinding, type NpmBinding } from "../engines/npm-binding.js";
import type { ChatCallOptions, ChatMessage, ChatModel } from "./chat.js";
import { checkGgufFile, type ReadGgufFileInfo } from "./gguf-file.js";
import { LocalModelError } from "./local-model-error.js";
import { sectionsInstruction, sectionsMarkdown, sectionsSchema } from "./sections-grammar.js";

export const LLAMA_BINDING_VERSION = "3.21.1";

/** node-llama-cpp's prebuilt CPU build for this platform. */
export function llamaPlatformPackage(platform = process.platform, arch = process.arch): string {
  const os = platform === "darwin" ? "mac" : platform === "win32" ? "win" : platform;
  return `@node-llama-cpp/${os}-${arch}${platform === "darwin" && arch === "arm64" ? "-metal" : ""}`;
}

export const llamaBinding = (): NpmBinding => ({
  label: "the local language model's engine (node-llama-cpp)",
  name: "node-llama-cpp",
  platformPackage: llamaPlatformPackage(),
  version: LLAMA_BINDING_VERSION,
  // Its install script would build llama.cpp from source where no prebuilt build fits;
  // the platform's prebuilt build is installed beside it instead.
  ignoreScripts: true,
});

export const llamaBindingPath = (dataDir: string) => bindingPath(llamaBinding(), dataDir);
export const installLlamaBinding = (dataDir: string, opts: { signal?: AbortSignal } = {}) =>
  installBinding(llamaBinding(), dataDir, opts);

// The part of node-llama-cpp's API used here (it is not a dependency, so not typed by it).
type HistoryItem = { type: "system" | "user"; text: string } | { type: "model"; response: string[] };
interface LlamaChatApi {
  generateResponse(
    history: HistoryItem[],
    o: {
      onTextChunk?: (text: string) => void;
      signal?: AbortSignal;
      maxTokens?: number;
      temperature?: number;
      grammar?: unknown;
      repeatPenalty?: { lastTokens: number; penalty: number; frequencyPenalty: number; presencePenalty: number };
      budgets?: { thoughtTokens?: number };
    },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
  dispose(): void;
}
interface LlamaContextApi {
  contextSize: number;
  getSequence(): unknown;
  dispose(): Promise<void>;
}
interface LlamaModelApi {
  trainContextSize: number;
  fileInsights: {
    estimateContextResourceRequirements(o: { contextSize: number; modelGpuLayers: number }): { cpuRam: number };
  };
  tokenize(text: string): unknown[];
  createContext(o: { contextSize: number; threads?: number }): Promise<LlamaContextApi>;
  dispose(): Promise<void>;
}
interface LlamaApi {
  loadModel(o: { modelPath: string }): Promise<LlamaModelApi>;
  createGrammarForJsonSchema(schema: object): Promise<unknown>;
}
interface LlamaModule {
  getLlama(o: { gpu: false; build: "never"; logLevel: unknown; progressLogs: boolean }): Promise<LlamaApi>;
  readGgufFileInfo: ReadGgufFileInfo;
  LlamaChat: new (o: { contextSequence: unknown; autoDisposeSequence?: boolean }) => LlamaChatApi;
  LlamaLogLevel: { error: unknown };
}

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GB`;

/** Penalties on tokens said in the last 64: a small model otherwise repeats itself. */
const REPEAT_PENALTY = { lastTokens: 64, penalty: 1.15, frequencyPenalty: 0.1, presencePenalty: 0.1 };

/** node-llama-cpp, from beside notula or the data dir's engines. */
export async function importLlama(dataDir: string): Promise<LlamaModule> {
  const entry = llamaBindingPath(dataDir);
  if (!entry)
    throw new LocalModelError(
      "The local language model needs its engine (node-llama-cpp): set it up in Settings → AI, or run `notula models pull llm`",
    );
  return (await import(pathToFileURL(entry).href)) as LlamaModule;
}

interface Loaded {
  binding: LlamaModule;
  llama: LlamaApi;
  modelPath: string;
  model: LlamaModelApi;
  context: LlamaContextApi;
  /** Grammars made for sets of sections, by their titles. */
  grammars: Map<string, Promise<unknown>>;
}

export interface LocalLlmOptions {
  dataDir: string;
  /** The most context to give the model (its own is used when smaller). */
  contextTokens: number;
  /** CPU threads for one answer (default: all cores but one). */
  threads?: number;
  /** The longest answer, in tokens (default 1024). */
  maxTokens?: number;
}

/** What keeps the local model loaded, and lines up the requests for it. One per server. */
export function createLocalLlm(o: LocalLlmOptions) {
  const threads = o.threads ?? Math.max(1, os.availableParallelism() - 1);
  let loading: Promise<Loaded> | null = null;
  // Requests in line: the first is the one running.
  const line: { go: () => void; told?: (ahead: number) => void }[] = [];

  /** Loads `modelPath`, disposing the model loaded before: only in a turn (see `loaded`). */
  async function load(modelPath: string): Promise<Loaded> {
    const current = loading ? await loading.catch(() => null) : null;
    if (current?.modelPath === modelPath) return current;
    if (current) {
      await current.context.dispose();
      await current.model.dispose();
    }
    loading = (async () => {
      const binding = await importLlama(o.dataDir);
      await checkGgufFile(modelPath, binding.readGgufFileInfo);
      const llama = await binding.getLlama({
        gpu: false,
        build: "never",
        logLevel: binding.LlamaLogLevel.error,
        progressLogs: false,
      });
      let model: LlamaModelApi;
      try {
        model = await llama.loadModel({ modelPath });
      } catch (err) {
        throw new LocalModelError(
          `The local language model ${path.basename(modelPath)} could not be loaded (${(err as Error).message})`,
        );
      }
      const contextSize = Math.min(o.contextTokens, model.trainContextSize || o.contextTokens);
      // Given more than the machine has, llama.cpp works for most of a minute and takes
      // gigabytes before it gives up (seen: 45 s and 13 GB for 268 million tokens of a
      // tiny model); node-llama-cpp's own estimate, read first, refuses at once.
      const needs = model.fileInsights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0 }).cpuRam;
      if (needs > os.freemem()) {
        await model.dispose();
        throw new LocalModelError(
          `The local language model ${path.basename(modelPath)} needs about ${gib(needs)} of memory for a context of ${contextSize} tokens, and ${gib(os.freemem())} is free; lower NOTULA_LLM_LOCAL_CONTEXT_TOKENS or free memory`,
        );
      }
      let context: LlamaContextApi;
      try {
        context = await model.createContext({ contextSize, threads });
      } catch (err) {
        await model.dispose();
        throw new LocalModelError(
          `The local language model ${path.basename(modelPath)} could not start with a context of ${contextSize} tokens (${(err as Error).message}); lower NOTULA_LLM_LOCAL_CONTEXT_TOKENS or free memory`,
        );
      }
      return { binding, llama, modelPath, model, context, grammars: new Map() };
    })();
    loading.catch(() => (loading = null));
    return loading;
  }

  /** The grammar for these sections, made once per loaded model. */
  function grammarFor(loaded: Loaded, sections: string[]): Promise<unknown> {
    const key = JSON.stringify(sections);
    let g = loaded.grammars.get(key);
    if (!g) {
      g = loaded.llama.createGrammarForJsonSchema(sectionsSchema(sections));
      loaded.grammars.set(key, g);
      g.catch(() => loaded.grammars.delete(key));
    }
    return g;
  }

  /** Waits for this request's turn, telling it how many are ahead while it waits. */
  async function turn(signal: AbortSignal, told?: (ahead: number) => void): Promise<() => void> {
    let go!: () => void;
    const ready = new Promise<void>((resolve) => (go = resolve));
    const me = { go, told };
    line.push(me);
    if (line.length === 1) go();
    else told?.(line.length - 1);
    const leave = () => {
      const at = line.indexOf(me);
      if (at < 0) return;
      line.splice(at, 1);
      if (at === 0) line[0]?.go();
      line.forEach((w, i) => i > 0 && i >= at && w.told?.(i));
    };
    const onAbort = () => leave();
    signal.addEventListener("abort", onAbort, { once: true });
    await ready;
    signal.removeEventListener("abort", onAbort);
    if (signal.aborted) {
      leave();
      throw signal.reason;
    }
    return leave;
  }

  /**
   * The model of `modelPath`, loaded. While it is the one loaded, at once; another is
   * loaded only in a turn of its own, so a model a request is answering with is never
   * disposed under it.
   */
  async function loaded(modelPath: string): Promise<Loaded> {
    const current = loading ? await loading.catch(() => null) : null;
    if (current?.modelPath === modelPath) return current;
    const done = await turn(new AbortController().signal);
    try {
      return await load(modelPath);
    } finally {
      done();
    }
  }

  async function generate(
    modelPath: string,
    messages: ChatMessage[],
    signal: AbortSignal,
    opts: ChatCallOptions & { onDelta?: (text: string) => void },
  ): Promise<{ content: string; cutShort: boolean }> {
    const done = await turn(signal, opts.onQueued);
    try {
      const loaded = await load(modelPath);
      const { binding, model, context } = loaded;
      const sections = opts.sections;
      if (sections) {
        // The shape it is held to, told to it as well: a grammar alone lets it write empty lists.
        const [first, ...rest] = messages;
        const told = `${first.content}\n\n${sectionsInstruction(sections)}`;
        messages =
          first.role === "system"
            ? [{ ...first, content: told }, ...rest]
            : [{ role: "system", content: sectionsInstruction(sections) }, ...messages];
      }
      const size = context.contextSize;
      const promptTokens = messages.reduce((n, m) => n + model.tokenize(m.content).length + 8, 16);
      // What is read is never cut to fit: a prompt that leaves too little room is refused.
      const room = size - promptTokens;
      if (room < Math.min(256, size / 4))
        throw new Error(
          `The local model's context (${size} tokens) cannot hold this request (${promptTokens} tokens) and its answer.`,
        );
      const history: HistoryItem[] = messages.map((m) =>
        m.role === "assistant" ? { type: "model", response: [m.content] } : { type: m.role, text: m.content },
      );
      const chat = new binding.LlamaChat({ contextSequence: context.getSequence(), autoDisposeSequence: true });
      try {
        const r = await chat.generateResponse(history, {
          onTextChunk: opts.onDelta,
          signal,
          maxTokens: Math.min(o.maxTokens ?? 1024, room - 8),
          temperature: 0,
          repeatPenalty: REPEAT_PENALTY,
          grammar: sections ? await grammarFor(loaded, sections) : undefined,
          budgets: { thoughtTokens: 0 },
        });
        if (signal.aborted) throw signal.reason;
        if (!r.response.trim()) throw new Error("The local model returned an empty answer.");
        const content = sections ? sectionsMarkdown(r.response, sections) : r.response.trim();
        return { content, cutShort: r.metadata.stopReason === "maxTokens" };
      } finally {
        chat.dispose();
      }
    } finally {
      done();
    }
  }

  return {
    threads,
    /** The chat model for a GGUF file (loaded on its first request). */
    chat(modelPath: string): ChatModel {
      const name = `local:${path.basename(modelPath).replace(/\.gguf$/i, "")}`;
      return {
        name,
        heldToSections: true,
        contextTokens: async () => (await loaded(modelPath)).context.contextSize,
        async charsPerToken(sample) {
          if (!sample) return 3.5;
          const { model } = await loaded(modelPath);
          return sample.length / Math.max(1, model.tokenize(sample).length);
        },
        once: (messages, signal, opts = {}) => generate(modelPath, messages, signal, opts),
        stream: (messages, onDelta, signal, opts = {}) => generate(modelPath, messages, signal, { ...opts, onDelta }),
      };
    },
    /** How many requests are running or waiting. */
    waiting: () => line.length,
    async close() {
      const current = loading ? await loading.catch(() => null) : null;
      loading = null;
      if (current) {
        await current.context.dispose();
        await current.model.dispose();
      }
    },
  };
}

export type LocalLlm = ReturnType<typeof createLocalLlm>;
