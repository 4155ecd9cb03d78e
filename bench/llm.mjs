// What the local language model costs on this machine, on the real GGUF the tests use
// (TinyLlama 1.1B Chat, 2-bit; scripts/test-models.ts fetches it with its engine):
//   - load time, and the server's memory with the model loaded;
//   - time to first token and tokens per second of a short answer;
//   - the time to write a 30-minute meeting's notes (summary and enhanced note, the
//     meeting read in parts as its context allows), with the server's settings;
//   - the same for a 2-hour meeting: measured with BENCH_LLM_TWO_HOURS=1, otherwise
//     estimated from the 30-minute run's time per part (and said to be an estimate).
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

async function summarize(chat, minutes) {
  const calls = [];
  const timed = {
    ...chat,
    async once(messages, signal, opts) {
      const started = performance.now();
      const r = await chat.once(messages, signal, opts);
      calls.push({ map: /part \d+ of \d+:/.test(messages[1]?.content ?? ""), ms: performance.now() - started });
      return r;
    },
  };
  const started = performance.now();
  const r = await kit.createChatSummarizer(timed).summarize(
    {
      title: `A ${minutes}-minute meeting`,
      userWrittenNote: "",
      transcript: meeting(minutes),
      template: kit.builtinTemplate(kit.GENERAL_TEMPLATE_ID),
      language: "en",
    },
    { signal: new AbortController().signal },
  );
  return { ms: performance.now() - started, calls, warnings: r.warnings };
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
  } finally {
    await llm.close();
  }
}
