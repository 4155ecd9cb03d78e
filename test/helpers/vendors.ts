// Local stand-ins for the vendors outside our control, speaking their real protocols:
// an OpenAI-compatible transcription server (backed by pocketsphinx, so the words are
// really recognised), an OpenAI-compatible chat-completions server and an embeddings one.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileP = promisify(execFile);

export interface VendorServer {
  url: string;
  calls: { headers: http.IncomingHttpHeaders; body: any }[];
  /** Requests that have arrived, answered or not (calls are recorded once answered). */
  arrived(): number;
  close(): Promise<void>;
  /** Changes behaviour while running. */
  set(options: Partial<VendorOptions>): void;
  /** The fields of the transcription requests that arrived while `hold` was set. */
  held: Record<string, unknown>[];
}

export interface VendorOptions {
  /** Transcription only: answer with the window's length instead of recognising it (fast). */
  echo?: boolean;
  /** Transcription only, with echo: each window's words said this many times more ("and the plan holds"), for long lines. */
  echoPad?: number;
  /** Transcription only: label segments with speakers A and B, as a diarizing model does. */
  diarize?: boolean;
  /** Transcription only: answer with these segments, as a diarizing model would (what the audio says is not heard). */
  script?: { start: number; end: number; text: string; speaker?: string }[];
  delayMs: number;
  /** Answer 500 to this many calls before behaving. */
  failFirst: number;
  apiKey?: string;
  /** Chat only: answer 500 to a request whose user message matches. */
  failWhen?: RegExp;
  /** Chat only: say the answer was cut short (finish_reason "length") when the user message matches. */
  cutShortWhen?: RegExp;
  /** Chat only: answer the note request with text that follows no template. */
  garbage?: boolean;
  /** Chat only, streaming: end the stream after this many words, without a finish reason. */
  stopStreamAfter?: number;
  /** Chat only, streaming: wait this long between words. */
  streamDelayMs?: number;
  /** Transcription only: note each request's fields in `held`, and answer it only once this settles. */
  hold?: Promise<unknown>;
}

async function listen(
  handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, options: VendorOptions) => Promise<void>,
  opts: Partial<VendorOptions>,
): Promise<VendorServer> {
  const options: VendorOptions = { delayMs: 0, failFirst: 0, ...opts };
  const calls: VendorServer["calls"] = [];
  let failures = 0;
  let arrived = 0;
  const server = http.createServer(async (req, res) => {
    arrived++;
    try {
      // Inside the try: a caller killed mid-request (the fault tests) aborts the read.
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        res
          .writeHead(401, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
        return;
      }
      if (failures < options.failFirst) {
        failures++;
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "temporarily unavailable" } }));
        return;
      }
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      await handler(req, body, res, options);
    } catch (err) {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    arrived: () => arrived,
    held: [],
    set: (o) => Object.assign(options, o),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** POST /v1/audio/transcriptions, multipart, answering verbose_json with segments. */
export async function startTranscriptionServer(opts: Partial<VendorOptions> = {}): Promise<VendorServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-stt-"));
  let vendor: VendorServer;
  vendor = await listen(async (req, body, res, options) => {
    if (req.method !== "POST" || req.url !== "/v1/audio/transcriptions") {
      res.writeHead(404).end();
      return;
    }
    const form = await new Request("http://x/", {
      method: "POST",
      headers: req.headers as Record<string, string>,
      body,
    }).formData();
    const file = form.get("file") as File;
    const fields = Object.fromEntries([...form.entries()].filter(([k]) => k !== "file"));
    if (options.hold) {
      vendor.held.push(fields);
      await options.hold;
    }
    vendor.calls.push({ headers: req.headers, body: fields });
    if (options.script) {
      const segments = options.script.map((s, id) => ({ id, ...s }));
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ text: segments.map((s) => s.text).join(" "), segments }));
      return;
    }
    if (opts.echo) {
      const seconds = (file.size - 44) / 32000;
      const text = `window of ${seconds.toFixed(1)} seconds${" and the plan holds".repeat(opts.echoPad ?? 0)}`;
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ text, segments: [{ id: 0, start: 0, end: seconds, text }] }));
      return;
    }
    const wav = path.join(dir, `${Date.now()}-${Math.random()}.wav`);
    fs.writeFileSync(wav, Buffer.from(await file.arrayBuffer()));
    const { stdout } = await execFileP("pocketsphinx_continuous", [
      "-infile",
      wav,
      "-time",
      "yes",
      "-logfn",
      "/dev/null",
    ]);
    fs.rmSync(wav);
    const words = stdout
      .split("\n")
      .map((l) => /^(\S+) (\d+\.\d+) (\d+\.\d+) /.exec(l))
      .filter((m): m is RegExpExecArray => Boolean(m) && !m![1].startsWith("<") && !m![1].startsWith("["));
    const text = words.map((m) => m[1].replace(/\(\d+\)$/, "")).join(" ");
    const segments = words.length
      ? [{ id: 0, start: Number(words[0][2]), end: Number(words[words.length - 1][3]), text: ` ${text}` }]
      : [];
    // A diarizing model labels each segment's speaker: here the first half of the words is A's, the rest B's.
    if (opts.diarize && words.length >= 2) {
      const half = Math.ceil(words.length / 2);
      const seg = (ws: RegExpExecArray[], speaker: string, id: number) => ({
        id,
        speaker,
        start: Number(ws[0][2]),
        end: Number(ws[ws.length - 1][3]),
        text: ` ${ws.map((m) => m[1].replace(/\(\d+\)$/, "")).join(" ")}`,
      });
      segments.splice(0, segments.length, seg(words.slice(0, half), "A", 0), seg(words.slice(half), "B", 1));
    }
    const language = typeof fields.language === "string" ? fields.language : "english";
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ task: "transcribe", language, duration: 0, text, segments }));
  }, opts);
  return vendor;
}

/** POST /v1/chat/completions. Answers are made from the request, so tests can trace what was sent. */
export async function startChatServer(opts: Partial<VendorOptions> = {}): Promise<VendorServer> {
  let vendor: VendorServer;
  vendor = await listen(async (req, body, res, options) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404).end();
      return;
    }
    const json = JSON.parse(body.toString("utf8"));
    vendor.calls.push({ headers: req.headers, body: json });
    const system: string = json.messages[0].content;
    const user: string = json.messages[1].content;
    if (options.failWhen?.test(user)) {
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "this part upsets the model" } }));
      return;
    }
    // What a model would take from what it was given: the transcript's lines or the notes' bullets.
    const points = user.split("\n").filter((l) => /^\[\d+:\d{2}\]|^- /.test(l));
    const language = /Write in ([A-Z][\w ]+)\./.exec(system)?.[1];
    const tag = language ? `[${language}] ` : "";
    let content: string;
    if (/Summarize this part/.test(system)) {
      content = points
        .slice(0, 8)
        .map((l) => `- ${l.replace(/^- /, "").slice(0, 60)}`)
        .join("\n");
    } else if (/Combine these notes/.test(system)) {
      content = points.slice(0, 10).join("\n");
    } else if (/Reply with one short sentence/.test(system)) {
      content = "I can read meeting transcripts.";
    } else if (/You answer questions about the user's meetings/.test(system)) {
      // An answer made of what it was given: the first moment's words, cited by its number.
      const last: string = json.messages[json.messages.length - 1].content;
      const first = /^\[(\d+)\] [^\n]*:\n([^\n]+)/m.exec(last);
      content = first
        ? `From the meetings: ${first[2].replace(/^[^:]+: /, "")} [${first[1]}]. (${json.messages.length - 2} earlier messages.)`
        : "The moments do not say.";
    } else if (/You read numbered moments/.test(system)) {
      content = user
        .split("\n")
        .filter((l) => /^\[\d+\]/.test(l))
        .map((l) => `- ${l.slice(0, 80)}`)
        .join("\n");
    } else if (/summary of the whole meeting/.test(system)) {
      content = `${tag}Summary by the model: ${points.length} points discussed.`;
    } else if (options.garbage) {
      content = "I am sorry, I cannot help with that.";
    } else {
      // The note: every section the system prompt lists, in its order, each with some of the points.
      const sections = [...system.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      content = sections
        .map((title, i) => {
          const mine = points.filter((_, j) => j % sections.length === i).slice(0, 3);
          // Asked to, a point ends with the time of the line it comes from, as a model writes it.
          const cite = /End each item with the time/.test(system);
          const item = (l: string) => {
            const [, time, said] = /^\[(\d+:\d{2})\] (.*)$/.exec(l) ?? [null, null, l.replace(/^- /, "")];
            return `- ${tag}${said!.slice(0, 80)}${cite && time ? ` [${time}]` : ""}`;
          };
          return `## ${title}\n${mine.length ? mine.map(item).join("\n") : "Nothing noted."}`;
        })
        .join("\n\n");
    }
    const cutShort = options.cutShortWhen?.test(user) ?? false;
    if (json.stream) {
      // The streaming protocol: a chunk per word, then the finish reason and [DONE].
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (delta: object, finish: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", model: json.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      send({ role: "assistant", content: "" });
      const words = content.split(/(?<= )/);
      for (const [i, w] of words.entries()) {
        if (options.stopStreamAfter !== undefined && i >= options.stopStreamAfter) return void res.end();
        send({ content: w });
        if (options.streamDelayMs) await new Promise((r) => setTimeout(r, options.streamDelayMs));
      }
      send({}, cutShort ? "length" : "stop");
      res.end("data: [DONE]\n\n");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "chatcmpl-test",
        object: "chat.completion",
        model: json.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: cutShort ? "length" : "stop" }],
      }),
    );
  }, opts);
  return vendor;
}

/**
 * POST /v1/embeddings: each input's vector is made from its letters (a count per letter
 * of `dimensions`), so that equal texts get equal vectors and the server needs no model.
 */
export async function startEmbeddingServer(
  opts: Partial<VendorOptions> & { dimensions?: number } = {},
): Promise<VendorServer> {
  const dimensions = opts.dimensions ?? 8;
  let vendor: VendorServer;
  vendor = await listen(async (req, body, res) => {
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res.writeHead(404).end();
      return;
    }
    const json = JSON.parse(body.toString("utf8"));
    vendor.calls.push({ headers: req.headers, body: json });
    const inputs: string[] = Array.isArray(json.input) ? json.input : [json.input];
    const data = inputs.map((text, index) => {
      const embedding = new Array<number>(dimensions).fill(0.01);
      for (const ch of text.toLowerCase()) embedding[ch.charCodeAt(0) % dimensions] += 1;
      return { object: "embedding", index, embedding };
    });
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", model: json.model, data }));
  }, opts);
  return vendor;
}

/** Share of the expected words that appear in the heard text. */
export function wordOverlap(expected: string, heard: string): number {
  const norm = (s: string) => s.toLowerCase().match(/[a-z']+/g) ?? [];
  const got = new Set(norm(heard));
  const want = norm(expected);
  return want.filter((w) => got.has(w)).length / want.length;
}

/** Words the heard text gets wrong against the expected (edit distance over lowercase words). */
export function wordErrors(expected: string, heard: string): number {
  const norm = (s: string) => s.toLowerCase().match(/[a-z']+/g) ?? [];
  const want = norm(expected);
  const got = norm(heard);
  let prev = Array.from({ length: got.length + 1 }, (_, j) => j);
  for (let i = 1; i <= want.length; i++) {
    const row = [i];
    for (let j = 1; j <= got.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (want[i - 1] === got[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[got.length];
}
