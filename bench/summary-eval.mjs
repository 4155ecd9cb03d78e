// The offline summarizer, measured on the hand-labelled meetings of summary-meetings.mjs.
// Each meeting is spoken (flite, a voice per person), uploaded to a server with no
// language model and transcribed there (pocketsphinx), so its note is what a new
// install shows; and again by whisper base.en. Reported:
//   action recall   the share of the hand-written tasks that a line of "Action items"
//                   states (at least half of the task's words, stems compared);
//   decision recall the same for "Decisions";
//   duplicates      summaries that say a sentence twice (goal 0);
//   refusals        notes enhanced with the Follow-up email template whose subject and
//                   email say they need a language model, rather than quoting the meeting.
// The baseline, taken in the same run: the same meetings as written (POST /v1/notes
// with the written transcript, summarized the same way), so the ratio shows what the speech
// engine's mistakes cost and what the summarizer itself misses.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { api, startServer, stopServer, untilCompleted, uploadRecording } from "./lib.mjs";
import { MEETINGS } from "./summary-meetings.mjs";

const STOP = new Set(
  "a an and the to of for on in at by from with is are was we i will need needs it this that our all be".split(" "),
);
const stem = (w) => w.replace(/(ies|es|s|ing|ed)$/, "");
const wordsOf = (s) =>
  (s.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((w) => !STOP.has(w) && w.length > 1).map(stem);

/** Whether one line of a section states the labelled item: half its words or more. */
function stated(item, lines) {
  const want = new Set(wordsOf(item));
  return lines.some((l) => {
    const have = new Set(wordsOf(l));
    return [...want].filter((w) => have.has(w)).length / want.size >= 0.5;
  });
}

const sectionLines = (md, title) =>
  (md.split(`## ${title}\n`)[1]?.split(/\n## /)[0] ?? "").split("\n").filter((l) => l.startsWith("- "));

function speak(meeting, dir, i) {
  const parts = meeting.lines.map(([voice, text], k) => {
    const raw = path.join(dir, `m${i}-${k}-raw.wav`);
    const file = path.join(dir, `m${i}-${k}.wav`);
    execFileSync("flite", ["-voice", voice, "-t", text, "-o", raw]);
    // The voices speak at different rates (8 and 16 kHz): one format before they are joined.
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", raw, "-ar", "16000", "-ac", "1", file]);
    return file;
  });
  const list = path.join(dir, `m${i}.txt`);
  fs.writeFileSync(list, parts.map((p) => `file '${p}'`).join("\n"));
  const out = path.join(dir, `m${i}.mp3`);
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-ar", "16000", out]);
  const seconds = Number(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out]).toString(),
  );
  return { file: out, seconds };
}

function score(notes) {
  let actions = 0;
  let actionHits = 0;
  let decisions = 0;
  let decisionHits = 0;
  let duplicates = 0;
  for (const [i, note] of notes.entries()) {
    const m = MEETINGS[i];
    const todo = sectionLines(note.enhancedNote, "Action items");
    const decided = sectionLines(note.enhancedNote, "Decisions");
    actions += m.actions.length;
    actionHits += m.actions.filter((a) => stated(a, todo)).length;
    decisions += m.decisions.length;
    decisionHits += m.decisions.filter((d) => stated(d, decided)).length;
    const sentences = (note.summary ?? "").split(/(?<=[.!?])\s+/).map((s) => s.toLowerCase().trim());
    if (new Set(sentences).size < sentences.length) duplicates++;
  }
  return { actionRecall: actionHits / actions, decisionRecall: decisionHits / decisions, duplicates };
}

/** The meetings spoken, uploaded and transcribed by the server's engine, as a new install does it. */
async function spokenNotes(server, dir) {
  const spoken = [];
  for (const [i, m] of MEETINGS.entries()) {
    const { file, seconds } = speak(m, dir, i);
    const audioUrl = await uploadRecording(server, file, "mp3", Math.ceil(seconds));
    const { noteId } = await api(server, "POST", "/v1/notes/from-audio", { audioUrl, title: m.title });
    spoken.push(await untilCompleted(server, noteId));
  }
  return spoken;
}

export async function benchSummaryEval() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-summary-"));
  const kit = await import("./.kit/kit.js");
  await kit.ensureTestModels();
  const whisperModel = process.env.BENCH_WHISPER_MODEL ?? kit.testModelPath("whisperBaseEn");
  const server = await startServer(path.join(dir, "data"), ["--stt-engine", "sphinx", "--no-rate-limit"]);
  try {
    // Written: the meetings' own words, enhanced with the General meeting template.
    const written = [];
    for (const m of MEETINGS) {
      const transcripts = m.lines.map(([voice, text], k) => ({
        speaker: voice,
        text,
        startTimestamp: `00:${String(k * 5).padStart(2, "0")}`,
        endTimestamp: `00:${String(k * 5 + 5).padStart(2, "0")}`,
      }));
      // A note made with a transcript is summarized with the workspace's default template (General meeting).
      const { note } = await api(server, "POST", "/v1/notes", { title: m.title, transcripts });
      written.push(await untilCompleted(server, note.id));
    }
    // Spoken: recorded, uploaded and transcribed as a new install does it, by pocketsphinx here.
    const spoken = await spokenNotes(server, dir);
    // A template that needs a language model: each spoken note enhanced with it.
    let refused = 0;
    for (const note of spoken) {
      await api(server, "POST", `/v1/notes/${note.id}/enhance`, { templateId: "tpl_builtin_follow-up-email" });
      const again = await untilCompleted(server, note.id);
      const says = (title) =>
        (again.enhancedNote.split(`## ${title}\n`)[1] ?? "").trim().startsWith("_Writing this section needs");
      if (says("Subject") && says("Email")) refused++;
    }
    // And by whisper base.en, on a server of its own.
    const whisperServer = await startServer(path.join(dir, "whisper"), [
      "--stt-engine",
      "whisper",
      "--model-path",
      whisperModel,
      "--no-rate-limit",
    ]);
    let heard;
    try {
      heard = await spokenNotes(whisperServer, dir);
    } finally {
      await stopServer(whisperServer.proc);
    }
    const w = score(written);
    const s = score(spoken);
    const h = score(heard);
    const pct = (x) => `${(100 * x).toFixed(0)} %`;
    const ratio = (a, b) => (b ? (a / b).toFixed(2) : "—");
    console.log(`\nOffline summarizer on ${MEETINGS.length} hand-labelled meetings (extractive, no language model)`);
    console.log(
      "| | written transcript (baseline) | spoken, pocketsphinx | / written | spoken, whisper base.en | / written |",
    );
    console.log("|---|---|---|---|---|---|");
    console.log(
      `| action items found | ${pct(w.actionRecall)} | ${pct(s.actionRecall)} | ${ratio(s.actionRecall, w.actionRecall)} | ${pct(h.actionRecall)} | ${ratio(h.actionRecall, w.actionRecall)} |`,
    );
    console.log(
      `| decisions found | ${pct(w.decisionRecall)} | ${pct(s.decisionRecall)} | ${ratio(s.decisionRecall, w.decisionRecall)} | ${pct(h.decisionRecall)} | ${ratio(h.decisionRecall, w.decisionRecall)} |`,
    );
    console.log(`| summaries with a repeated sentence | ${w.duplicates} | ${s.duplicates} | | ${h.duplicates} | |`);
    console.log(`| Follow-up email left to a language model | | ${refused} of ${spoken.length} | | | |`);
    return { written: w, spoken: s, whisper: h, refused };
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
