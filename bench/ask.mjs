// Asking one's meetings, measured two ways.
//
// Quality, on the labelled search corpus (search-corpus.mjs: 110 meetings, with the
// bundled sentence-embedding model): each query asked as "What was said about …?"
// through POST /v1/ask, and questions as people ask them, worded unlike the meetings
// (ASKED). Reported:
//   - the citations' precision (the share of cited meetings that answer it);
//   - their recall (the share of the meetings that answer it that were cited), overall
//     and for the questions two or more meetings answer;
//   - the share of questions with no answer that were answered "nothing found" (goal ≥ 0.9).
//
// Speed, at 10,000 seeded meetings: the time from POST /v1/ask to its first streamed
// word, with a local stand-in model that answers at once, against GET /v1/search for
// the same words in the same run (the retrieval the answer waits for). Goal: under 1 s.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { api, startServer, stopServer } from "./lib.mjs";
import { answers, buildCorpus, QUERIES, writeCorpus } from "./search-corpus.mjs";
import { SEARCHED_COMPANY, seed } from "./seed.mjs";

/**
 * Questions as people ask them, worded unlike the meetings (a place for a city, "now"
 * for the latest change, a synonym for the words said), asked as they are.
 */
const ASKED = [
  ["How much would relocating the team to Portugal cost?", { about: "lisbon" }],
  ["Where does the Lisbon office stand now?", { version: "lisbon:follow-up" }],
  ["Who is getting the designer job?", { about: "hiring" }],
  ["How long was the database offline?", { about: "outage" }],
  ["When is the company retreat?", { about: "offsite" }],
  ["How are we protecting user credentials?", { about: "security" }],
  ["Which phone platform ships first?", { about: "mobile" }],
  ["Why are enterprise clients cancelling?", { about: "churn" }],
  ["How much does the starter tier cost now?", { version: "pricing:follow-up" }],
  ["What slows down engineers on their first day?", { about: "onboarding" }],
];

const MEETINGS_AT_SCALE = Number(process.env.BENCH_ASK_NOTES ?? 10_000);
const ROUNDS = 20;

/** An OpenAI-compatible chat server that streams a short answer at once, a word a chunk. */
function standIn() {
  const server = http.createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const w of ["The ", "moments ", "say ", "so ", "[1]."])
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: w }, finish_reason: null }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`);
    res.end("data: [DONE]\n\n");
  });
  return new Promise((r) =>
    server.listen(0, "127.0.0.1", () => r({ server, url: `http://127.0.0.1:${server.address().port}/v1` })),
  );
}

/** POST /v1/ask answered once, as JSON. */
async function askJson(server, body) {
  const res = await fetch(`${server.url}/v1/ask`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST /v1/ask: ${res.status} ${await res.text()}`);
  return res.json();
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const f2 = (x) => (x === null ? "–" : x.toFixed(2));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function quality() {
  const meetings = buildCorpus();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-ask-"));
  const server = await startServer(dataDir, [], { NOTULA_EMBEDDINGS: "local" });
  try {
    const ids = await writeCorpus(server, meetings);
    // Meaning needs the passages embedded: wait until search by meaning finds the last one.
    const last = Object.values(meetings).at(-1);
    for (let i = 0; i < 600; i++) {
      const r = await api(
        server,
        "GET",
        `/v1/search?${new URLSearchParams({ q: last.title, mode: "semantic", limit: "50" })}`,
      );
      if (r.results.some((x) => x.note.id === ids[Object.keys(meetings).at(-1)])) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const precision = [];
    const recall = [];
    const recallTwo = [];
    const nothing = [];
    const wrong = [];
    for (const [q, kind, target] of QUERIES) {
      const r = await askJson(server, { question: `What was said about ${q}?` });
      const cited = new Set(r.citations.map((c) => c.noteId));
      const want = new Set(answers(meetings, target).map((k) => ids[k]));
      if (kind === "none" || !want.size) {
        nothing.push(r.found ? 0 : 1);
        if (r.found) wrong.push(q);
        continue;
      }
      const hit = [...cited].filter((id) => want.has(id)).length;
      precision.push(cited.size ? hit / cited.size : 0);
      recall.push(hit / want.size);
      if (want.size >= 2) recallTwo.push(hit / want.size);
    }
    // Questions worded unlike the meetings, asked as they are.
    const askedPrecision = [];
    const askedRecall = [];
    const missed = [];
    for (const [question, target] of ASKED) {
      const r = await askJson(server, { question });
      const cited = new Set(r.citations.map((c) => c.noteId));
      const want = new Set(answers(meetings, target).map((k) => ids[k]));
      const hit = [...cited].filter((id) => want.has(id)).length;
      askedPrecision.push(cited.size ? hit / cited.size : 0);
      askedRecall.push(hit / want.size);
      if (hit < want.size) missed.push(`${question} (${hit} of ${want.size})`);
    }
    console.log(
      `\nask quality: ${Object.keys(meetings).length} meetings, ${QUERIES.length} questions (${precision.length} answerable, ${recallTwo.length} of them by two or more meetings, ${nothing.length} with no answer)\n`,
    );
    console.log(
      "| citation precision | citation recall | recall, two or more meetings | no answer → nothing found (goal ≥ 0.9) |",
    );
    console.log("|---:|---:|---:|---:|");
    console.log(`| ${f2(mean(precision))} | ${f2(mean(recall))} | ${f2(mean(recallTwo))} | ${f2(mean(nothing))} |`);
    if (wrong.length) console.log(`\nanswered though nothing answers them: ${wrong.join("; ")}`);
    console.log(
      `\n${ASKED.length} questions as people ask them, worded unlike the meetings ("How much would relocating the team to Portugal cost?"):\n`,
    );
    console.log("| citation precision | citation recall |");
    console.log("|---:|---:|");
    console.log(`| ${f2(mean(askedPrecision))} | ${f2(mean(askedRecall))} |`);
    if (missed.length) console.log(`\nnot every answering meeting cited: ${missed.join("; ")}`);
    const all = { precision: [...precision, ...askedPrecision], recall: [...recall, ...askedRecall] };
    console.log(
      `\nthe whole set, ${all.precision.length} answerable questions (both of the above; goal ≥ 0.8 each): citation precision ${f2(mean(all.precision))}, recall ${f2(mean(all.recall))}`,
    );
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function firstWord() {
  const model = await standIn();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-ask-scale-"));
  try {
    let server = await startServer(dataDir);
    const key = server.key;
    await stopServer(server.proc);
    seed(path.join(dataDir, "notula.db"), MEETINGS_AT_SCALE);
    server = { ...(await startServer(dataDir, ["--llm-url", model.url, "--llm-model", "stand-in"])), key };
    try {
      const question = `What did we say about the budget with ${SEARCHED_COMPANY}?`;
      const search = [];
      const first = [];
      for (let i = 0; i < ROUNDS + 2; i++) {
        let t = performance.now();
        await api(server, "GET", `/v1/search?${new URLSearchParams({ q: `budget ${SEARCHED_COMPANY}`, limit: "8" })}`);
        const s = performance.now() - t;
        t = performance.now();
        const res = await fetch(`${server.url}/v1/ask`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
          body: JSON.stringify({ question }),
        });
        let seen = null;
        const decoder = new TextDecoder();
        let text = "";
        for await (const chunk of res.body) {
          text += decoder.decode(chunk, { stream: true });
          if (seen === null && text.includes("event: text")) seen = performance.now() - t;
        }
        if (!text.includes("event: done")) throw new Error(`the answer did not finish: ${text.slice(0, 300)}`);
        // The first two warm the caches.
        if (i >= 2) {
          search.push(s);
          first.push(seen);
        }
      }
      const p50 = pct(first, 0.5);
      console.log(
        `\nfirst streamed word at ${MEETINGS_AT_SCALE.toLocaleString("en")} meetings (stand-in model, ${ROUNDS} asks): p50 ${p50.toFixed(0)} ms, p95 ${pct(first, 0.95).toFixed(0)} ms (goal under 1 s); ${(p50 / pct(search, 0.5)).toFixed(1)}× GET /v1/search for the same words (p50 ${pct(search, 0.5).toFixed(0)} ms)`,
      );
    } finally {
      await stopServer(server.proc);
    }
  } finally {
    model.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchAsk() {
  await quality();
  await firstWord();
}
