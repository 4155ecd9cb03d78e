// One client for an OpenAI-compatible chat-completions server (OpenAI, Ollama, LM
// Studio, vLLM, OpenRouter): a whole answer, or one streamed as server-sent events.
// A server that does not answer, answers garbage or stops mid-stream gives an error
// that says so; it never leaves the caller waiting.
import { createParser } from "eventsource-parser";
import type { Response } from "undici";
import { EngineConfigError } from "../transcription/engine.js";
import { connectionCause, type Outbound } from "../../net/outbound.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** How a call waits for its turn: told its place in the queue while it waits (a local model answers one at a time). */
export interface ChatCallOptions {
  onQueued?: (ahead: number) => void;
  /**
   * The answer is markdown with these `## ` sections, in this order. A model that can
   * be held to them (the local one, by a grammar) always returns each; a server is
   * asked for them by the prompt alone.
   */
  sections?: string[];
}

/**
 * What writes notes and answers: an OpenAI-compatible server or the local model. Both
 * say how much they can read at once, so that a long meeting is read in parts that fit.
 */
export interface ChatModel {
  /** e.g. "openai:gpt-4o-mini" or "local:qwen2.5-1.5b-instruct-q4_k_m"; recorded on a note. */
  name: string;
  /** Whether `sections` holds its answer to them (a grammar), so that prompts need not ask for the shape. */
  heldToSections?: boolean;
  /** The tokens it reads at once, prompt and answer together. */
  contextTokens(): Promise<number>;
  /** About how many characters of this text make one of its tokens. */
  charsPerToken(sample: string): Promise<number>;
  /** The whole answer; `cutShort` when the model hit its answer limit. */
  once(
    messages: ChatMessage[],
    signal: AbortSignal,
    opts?: ChatCallOptions,
  ): Promise<{ content: string; cutShort: boolean }>;
  /** The answer as it is written, each piece given to `onDelta`; resolves with the whole. */
  stream(
    messages: ChatMessage[],
    onDelta: (text: string) => void,
    signal: AbortSignal,
    opts?: ChatCallOptions,
  ): Promise<{ content: string; cutShort: boolean }>;
}

/** About four characters a token for English text; a conservative estimate. */
export const CHARS_PER_TOKEN = 3.5;

export interface ChatClientOptions {
  url: string;
  apiKey?: string;
  model: string;
  /** The whole answer's limit (default 120 s). */
  timeoutMs?: number;
  /** A stream that sends nothing for this long has stalled (default 30 s). */
  idleMs?: number;
  /** Its context window (the server's setting, NOTULA_LLM_CONTEXT_TOKENS). */
  contextTokens?: number;
  /** The language model server's way out (net/outbound.ts). */
  outbound: Outbound;
}

export function createChatClient(opts: ChatClientOptions): ChatModel & { model: string } {
  const endpoint = `${opts.url.replace(/\/+$/, "")}/chat/completions`;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const idleMs = opts.idleMs ?? 30_000;

  async function post(messages: ChatMessage[], stream: boolean, signal: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await opts.outbound.fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: opts.model, temperature: 0.2, messages, ...(stream ? { stream: true } : {}) }),
        signal,
      });
    } catch (err) {
      if ((err as Error).name === "TimeoutError")
        throw new Error(`The language model did not answer within ${Math.round(timeoutMs / 1000)} s.`);
      if ((err as Error).name === "AbortError") throw err;
      throw new Error(`The language model server cannot be reached: ${(connectionCause(err) as Error).message}`, {
        cause: err,
      });
    }
    if (res.ok) return res;
    const text = await res.text();
    if (res.status === 401 || res.status === 403 || res.status === 404)
      throw new EngineConfigError(
        `The language model server refused the request (${res.status}): ${text.slice(0, 300)}`,
      );
    throw new Error(`The language model server answered ${res.status}: ${text.slice(0, 300)}`);
  }

  return {
    model: opts.model,
    name: `openai:${opts.model}`,
    contextTokens: async () => opts.contextTokens ?? 8192,
    charsPerToken: async () => CHARS_PER_TOKEN,

    /** The whole answer; `cutShort` when the model hit its answer limit. */
    async once(messages: ChatMessage[], signal: AbortSignal): Promise<{ content: string; cutShort: boolean }> {
      const res = await post(messages, false, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
      const text = await res.text();
      let choice: { message?: { content?: unknown }; finish_reason?: string } | undefined;
      try {
        choice = (JSON.parse(text) as { choices?: (typeof choice)[] }).choices?.[0];
      } catch {
        throw new Error(`The language model server answered something other than JSON: ${text.slice(0, 120)}`);
      }
      const content = choice?.message?.content;
      if (typeof content !== "string" || !content.trim())
        throw new Error("The language model returned an empty answer.");
      return { content: content.trim(), cutShort: choice?.finish_reason === "length" };
    },

    /**
     * The answer as it is written: `onDelta` gets each piece. Resolves with the whole
     * text once the server says it is done; rejects (after what streamed was given)
     * when it stalls, ends without saying so, or sends what is not a chat stream.
     */
    async stream(
      messages: ChatMessage[],
      onDelta: (text: string) => void,
      signal: AbortSignal,
    ): Promise<{ content: string; cutShort: boolean }> {
      const idle = new AbortController();
      let timer = setTimeout(() => idle.abort(), idleMs);
      const all = AbortSignal.any([signal, idle.signal, AbortSignal.timeout(timeoutMs)]);
      let content = "";
      let cutShort = false;
      let done = false;
      try {
        const res = await post(messages, true, all);
        if (!res.body) throw new Error("The language model server sent no answer.");
        const decoder = new TextDecoder();
        const parser = createParser({
          onEvent: ({ data }) => {
            if (data.trim() === "[DONE]") {
              done = true;
              return;
            }
            let event: { choices?: { delta?: { content?: unknown }; finish_reason?: string | null }[] };
            try {
              event = JSON.parse(data);
            } catch {
              throw new Error(`The language model's stream held something other than JSON: ${data.slice(0, 120)}`);
            }
            const choice = event.choices?.[0];
            const piece = choice?.delta?.content;
            if (typeof piece === "string" && piece) {
              content += piece;
              onDelta(piece);
            }
            if (choice?.finish_reason) {
              cutShort = choice.finish_reason === "length";
              done = true;
            }
          },
        });
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          clearTimeout(timer);
          timer = setTimeout(() => idle.abort(), idleMs);
          parser.feed(decoder.decode(chunk, { stream: true }));
        }
      } catch (err) {
        if (signal.aborted) throw err;
        if (idle.signal.aborted)
          throw new Error(`The language model stopped answering (nothing for ${Math.round(idleMs / 1000)} s).`);
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (!done) throw new Error("The language model's answer stopped before it was finished.");
      if (!content.trim()) throw new Error("The language model returned an empty answer.");
      return { content, cutShort };
    },
  };
}

export type ChatClient = ReturnType<typeof createChatClient>;
