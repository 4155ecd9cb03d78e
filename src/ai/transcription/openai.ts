// Any OpenAI-compatible /audio/transcriptions server: OpenAI, Groq, a local whisper server.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import path from "node:path";
import type { Outbound } from "../../net/outbound.js";
import {
  EngineConfigError,
  languageCode,
  SINGLE_SPEAKER,
  type SpeechToText,
  type TranscriptSegment,
  promptOf,
} from "./engine.js";

interface VerboseJson {
  text?: string;
  language?: string;
  duration?: number;
  segments?: { start: number; end: number; text: string; speaker?: string }[];
}

/**
 * A multipart/form-data body with text fields and one file, streamed from disk:
 * a 10-minute window never sits in memory (FormData with a Blob would buffer it).
 */
async function multipartFile(fields: Record<string, string>, name: string, file: string, type: string) {
  const boundary = `----notula${randomBytes(12).toString("hex")}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${path.basename(file)}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { size } = await fsp.stat(file);
  async function* parts() {
    yield head;
    yield* fs.createReadStream(file, { highWaterMark: 256 * 1024 });
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    stream: Readable.toWeb(Readable.from(parts())) as ReadableStream,
  };
}

export function createOpenAiTranscriber(opts: {
  url: string;
  apiKey?: string;
  model: string;
  /** The speech server's way out (net/outbound.ts). */
  outbound: Outbound;
}): SpeechToText {
  const endpoint = `${opts.url.replace(/\/+$/, "")}/audio/transcriptions`;
  return {
    name: `openai:${opts.model}`,
    // 10 minutes of 16 kHz mono WAV is 19 MB, under OpenAI's 25 MB limit.
    windowSec: 600,
    // Billed by the minute: the live windows are the transcript.
    finalWindowSec: null,
    async transcribe(wavFile, { signal, language, vocabulary, previousText }) {
      const fields: Record<string, string> = {
        model: opts.model,
        response_format: "verbose_json",
        "timestamp_granularities[]": "segment",
      };
      // OpenAI takes ISO-639-1 ("pt", not "pt-br").
      if (language) fields.language = language.split("-")[0];
      // The documented way to steer spelling of names and terms (a prompt that uses them),
      // and to carry on a sentence cut by a window (the text before it).
      const prompt = promptOf({ vocabulary, previousText });
      if (prompt) fields.prompt = prompt;
      const upload = await multipartFile(fields, "file", wavFile, "audio/wav");
      const res = await opts.outbound.fetch(endpoint, {
        method: "POST",
        body: upload.stream,
        duplex: "half",
        headers: {
          "content-type": upload.contentType,
          "content-length": String(upload.length),
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        signal,
      });
      const text = await res.text();
      if (res.status === 401 || res.status === 403 || res.status === 404)
        throw new EngineConfigError(
          `The transcription server refused the request (${res.status}): ${text.slice(0, 300)}`,
        );
      if (!res.ok) throw new Error(`The transcription server answered ${res.status}: ${text.slice(0, 300)}`);
      let body: VerboseJson;
      try {
        body = JSON.parse(text) as VerboseJson;
      } catch {
        // Some servers answer plain text whatever the format asked for.
        body = { text };
      }
      const detected = languageCode(body.language) ?? language;
      // Diarizing models (e.g. diarized_json) label each segment's speaker; others say nothing.
      if (body.segments?.length)
        return {
          language: detected,
          segments: body.segments
            .map((s): TranscriptSegment => ({
              speaker: s.speaker?.trim() || SINGLE_SPEAKER,
              text: s.text.trim(),
              start: s.start,
              end: s.end,
            }))
            .filter((s) => s.text),
        };
      const whole = (body.text ?? "").trim();
      return {
        language: detected,
        segments: whole ? [{ speaker: SINGLE_SPEAKER, text: whole, start: 0, end: body.duration ?? 0 }] : [],
      };
    },
  };
}
