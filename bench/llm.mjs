// What the local language model costs on this machine, on the real GGUF the tests use
// (TinyLlama 1.1B Chat, 2-bit; scripts/test-models.ts fetches it with its engine):
//   - load time, and the server's memory with the model loaded;
//   - time to first token and tokens per second of a short answer;
//   - the time to write a 30-minute meeting's notes (summary and enhanced note, the
//     meeting read in parts as its context allows), with the server's settings;
//   - the same for a 2-hour meeting: measured with BENCH_LLM_TWO_HOURS=1, otherwise
//     estimated from the 30-minute run's time per part (and said to be an estimate);
//   - the 30-minute meeting as if recorded: its finished parts read ahead as its
//     transcript grows (every two minutes of it), then the note written once it stops,
//     against the same note written after the meeting (goal: stop → written ≤ 0.1 of it).
// The model runs in this process, as in the server; the figures are the machine's own,
// so they are printed as they are and as multiples of the audio's length.
import os from "node:os";
import { MEETINGS } from "./summary-meetings.mjs";
import { MEETING_LINES } from "./meeting-lines.mjs";

const kit = await import("./.kit/kit.js");
const SECONDS_A_LINE = 4.8; // about 150 words a minute, at the lines' length

/** A meeting of `minutes`, its lines taken in turn from the benchmark meetings' sentences. */
function meeting(minutes) {
  const sentences = [...MEETINGS.flatMap((m) => m.lines.map(([, text]) => text)), ...MEETING_LINES];
  const speakers = ["Ana", "Ben", "Cleo", "Dee"];
  const lines = [];
  for (let i = 0; i * SECONDS_A_LINE < minutes * 60; i++) {
    const sec = Math.round(i * SECONDS_A_LINE);
    const at = [sec / 3600, (sec % 3600) / 60, sec % 60].map((n) => String(Math.floor(n)).padStart(2, "0")).join(":");
    lines.push({ at, speaker: speakers[i % speakers.length], text: sentences[i % sentences.length] });
  }
  return lines;
}

const mb = (bytes) => `${Math.round(bytes / 2 ** 20)} MB`;
const s1 = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function summarize(chat, minutes, o = {}) {
  const calls = [];
  const timed = {
    ...chat,
    async once(messages, signal, opts) {
      const started = performance.now();
      const r = await chat.once(messages, signal, opts);
      calls.push({ map: /, part \d+ \(/.test(messages[1]?.content ?? ""), ms: performance.now() - started });
      return r;
    },
  };
  const summarizer = kit.createChatSummarizer(timed);
  const input = (transcript) => ({
    title: `A ${minutes}-minute meeting`,
    userWrittenNote: "",
    transcript,
    template: kit.builtinTemplate(kit.GENERAL_TEMPLATE_ID),
    language: "en",
  });
  const signal = new AbortController().signal;
  const lines = meeting(minutes);
  // Recorded: the parts its transcript has finished, read as it grows, kept for the note.
  let aheadMs = 0;
  if (o.memo)
    for (let n = 25; n < lines.length; n += 25) {
      const started = performance.now();
      await summarizer.readAhead(input(lines.slice(0, n)), { signal, memo: o.memo });
      aheadMs += performance.now() - started;
    }
  const aheadCalls = calls.splice(0);
  const started = performance.now();
  const r = await summarizer.summarize(input(lines), { signal, memo: o.memo });
  return { ms: performance.now() - started, calls, warnings: r.warnings, aheadMs, aheadCalls };
}

/** Kept answers in memory, as the server keeps them in its database. */
function memoryMemo() {
  const kept = new Map();
  return { get: async (d) => kept.get(d) ?? null, put: async (d, notes) => void kept.set(d, notes) };
}

export async function benchLlm() {
  await kit.ensureTestModels();
  const file = kit.testModelPath("tinyLlama");
  const threads = Math.max(1, os.availableParallelism() - 1);
  const llm = kit.createLocalLlm({ dataDir: kit.testModelsDir(), contextTokens: 4096, threads });
  const chat = llm.chat(file);
  try {
    const rssBefore = process.memoryUsage().rss;
    let started = performance.now();
    const context = await chat.contextTokens();
    const loadMs = performance.now() - started;
    const rssLoaded = process.memoryUsage().rss;

    started = performance.now();
    let firstMs = null;
    const r = await chat.stream(
      [{ role: "user", content: "In three sentences, why do teams write down what a meeting decided?" }],
      () => (firstMs ??= performance.now() - started),
      new AbortController().signal,
    );
    const totalMs = performance.now() - started;
    const tokens = Math.round(r.content.length / (await chat.charsPerToken(r.content)));
    const perSec = (tokens - 1) / ((totalMs - firstMs) / 1000);

    console.log(
      `\nLocal language model: ${chat.name} (${mb((await import("node:fs")).statSync(file).size)}), ${threads} threads, context ${context} tokens`,
    );
    console.log(`  load                    ${s1(loadMs)}`);
    console.log(
      `  memory with it loaded   ${mb(rssLoaded)} resident (${mb(rssLoaded - rssBefore)} more than before; the file is mapped, so its pages count once read)`,
    );
    console.log(`  first token             ${s1(firstMs)} (a 20-token question)`);
    console.log(`  writing                 ${perSec.toFixed(1)} tokens/s (${tokens} tokens)`);

    const half = await summarize(chat, 30);
    const parts = half.calls.filter((c) => c.map);
    const perPart = parts.reduce((a, c) => a + c.ms, 0) / Math.max(1, parts.length);
    const rest = half.ms - parts.reduce((a, c) => a + c.ms, 0);
    console.log(`\nNotes of a meeting (summary and enhanced note, General meeting template):`);
    console.log("| meeting | parts read | time | × the meeting's length |");
    console.log("|---|---:|---:|---:|");
    console.log(`| 30 minutes | ${parts.length} | ${s1(half.ms)} | ${(half.ms / 1000 / 1800).toFixed(2)} |`);
    if (process.env.BENCH_LLM_TWO_HOURS === "1") {
      const long = await summarize(chat, 120);
      const n = long.calls.filter((c) => c.map).length;
      console.log(`| 2 hours | ${n} | ${s1(long.ms)} | ${(long.ms / 1000 / 7200).toFixed(2)} |`);
    } else {
      // Four times the parts at the 30-minute run's time a part, and its combining and final calls again, twice.
      const estimate = parts.length * 4 * perPart + rest * 2;
      console.log(
        `| 2 hours (estimate) | ${parts.length * 4} | ${s1(estimate)} | ${(estimate / 1000 / 7200).toFixed(2)} |`,
      );
    }
    console.log(`\n  each part: ${s1(perPart)} on average; combining and the two final writings: ${s1(rest)}`);
    if (half.warnings.length) console.log(`  warnings: ${half.warnings.join(" / ")}`);

    const recorded = await summarize(chat, 30, { memo: memoryMemo() });
    const after = recorded.calls.filter((c) => c.map).length;
    console.log(
      `\nThe 30-minute meeting recorded: its finished parts read while its transcript grows, every two minutes of it`,
    );
    console.log("| | model calls | time | ratio |");
    console.log("|---|---:|---:|---:|");
    console.log(`| written after the meeting (baseline) | ${half.calls.length} | ${s1(half.ms)} | 1.00 |`);
    console.log(
      `| read while recorded | ${recorded.aheadCalls.length} | ${s1(recorded.aheadMs)} | ${(recorded.aheadMs / 1000 / 1800).toFixed(2)} of the meeting's length |`,
    );
    console.log(
      `| stop → written (goal ≤ 0.1) | ${recorded.calls.length} (${after} parts) | ${s1(recorded.ms)} | ${(recorded.ms / half.ms).toFixed(2)} |`,
    );
    if (recorded.warnings.length) console.log(`  warnings: ${recorded.warnings.join(" / ")}`);
  } finally {
    await llm.close();
  }
}
