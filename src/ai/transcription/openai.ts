// Any OpenAI-compatible /audio/transcriptions server: OpenAI, Groq, a local whisper server.
import fsp from "node:fs/promises";
import path from "node:path";
import { EngineConfigError, SINGLE_SPEAKER, type SpeechToText, type TranscriptSegment } from "./engine.js";

interface VerboseJson {
  text?: string;
  duration?: number;
  segments?: { start: number; end: number; text: string; speaker?: string }[];
}

export function createOpenAiTranscriber(opts: { url: string; apiKey?: string; model: string }): SpeechToText {
  const endpoint = `${opts.url.replace(/\/+$/, "")}/audio/transcriptions`;
  return {
    name: `openai:${opts.model}`,
    // 10 minutes of 16 kHz mono WAV is 19 MB, under OpenAI's 25 MB limit.
    windowSec: 600,
    async transcribe(wavFile, { signal, language }) {
      const form = new FormData();
      form.append("file", new Blob([await fsp.readFile(wavFile)], { type: "audio/wav" }), path.basename(wavFile));
      form.append("model", opts.model);
      form.append("response_format", "verbose_json");
      form.append("timestamp_granularities[]", "segment");
      if (language) form.append("language", language);
      const res = await fetch(endpoint, {
        method: "POST",
        body: form,
        headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
        signal,
      });
      const text = await res.text();
      if (res.status === 401 || res.status === 403 || res.status === 404)
        throw new EngineConfigError(`The transcription server refused the request (${res.status}): ${text.slice(0, 300)}`);
      if (!res.ok) throw new Error(`The transcription server answered ${res.status}: ${text.slice(0, 300)}`);
      let body: VerboseJson;
      try {
        body = JSON.parse(text) as VerboseJson;
      } catch {
        // Some servers answer plain text whatever the format asked for.
        body = { text };
      }
      if (body.segments?.length)
        return body.segments
          .map((s): TranscriptSegment => ({ speaker: s.speaker ?? SINGLE_SPEAKER, text: s.text.trim(), start: s.start, end: s.end }))
          .filter((s) => s.text);
      const whole = (body.text ?? "").trim();
      return whole ? [{ speaker: SINGLE_SPEAKER, text: whole, start: 0, end: body.duration ?? 0 }] : [];
    },
  };
}
