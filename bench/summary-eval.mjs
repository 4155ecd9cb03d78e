// The offline summarizer, measured on the hand-labelled meetings of summary-meetings.mjs.
// Each meeting is spoken (flite, a voice per person), uploaded to a server with no
// language model and transcribed there (pocketsphinx), so its note is what a new
// install shows; and again by whisper base.en. Reported, for each:
//   precision       the share of the lines of "Action items" (and of "Decisions") that
//                   state a labelled item, each item counted once (a line states an
//                   item when it has at least half of the item's words, stems compared);
//   recall          the share of the labelled items that a line states;
//   owners, due     of the tasks found, those whose owner (due date) is the labelled one;
//   citations       the points (every line of the enhanced note) that cite a moment of
//                   the transcript, and of those citations the ones whose line shares a
//                   content word with the point;
//   duplicates      summaries that say a sentence twice (goal 0);
//   refusals        notes enhanced with the Follow-up email template whose subject and
//                   email say they need a language model, rather than quoting the meeting.
// The baseline, taken in the same run: the same meetings as written (POST /v1/notes
// with the written transcript, summarized the same way), so the columns show what the
// speech engine's mistakes cost and what the summarizer itself misses.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { api, startServer, stopServer, untilCompleted, uploadRecording } from "./lib.mjs";
import { MEETINGS, OWN_NOTES } from "./summary-meetings.mjs";

const STOP = new Set(
  "a an and the to of for on in at by from with is are was we i will need needs it this that our all be".split(" "),
);
const stem = (w) => w.replace(/(ies|es|s|ing|ed)$/, "");
/** A line's words, its links (the citations) aside. */
const wordsOf = (s) =>
  (
    s
      .replace(/\[[^\]]*\]\([^)]*\)/g, " ")
      .toLowerCase()
      .match(/[a-z0-9']+/g) ?? []
  )
    .filter((w) => !STOP.has(w) && w.length > 1)
    .map(stem);

/** Whether one line states the labelled item: half its words or more. */
function states(item, line) {
  const want = new Set(wordsOf(item));
  const have = new Set(wordsOf(line));
  return [...want].filter((w) => have.has(w)).length / want.size >= 0.5;
}

const sectionLines = (md, title) =>
  (md.split(`## ${title}\n`)[1]?.split(/\n## /)[0] ?? "").split("\n").filter((l) => l.startsWith("- "));

const mmss = (sec) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;
const DAY = 86_400_000;
/** The labelled due date, resolved against the meeting's day as summary-meetings.mjs says. */
function dueOn(label, meetingAt) {
  if (!label) return null;
  const today = Math.floor(meetingAt / DAY) * DAY;
  const weekday = (new Date(today).getUTCDay() + 6) % 7; // Monday 0
  const friday = today + (4 - weekday) * DAY;
  const iso = (ms) => new Date(ms).toISOString().slice(0, 10);
  const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
  if (days.includes(label)) return iso(today + ((days.indexOf(label) - weekday + 7) % 7 || 7) * DAY);
  if (label === "next-fri" || label === "next-week") return iso(friday + 7 * DAY);
  if (label === "today") return iso(today);
  if (label === "tomorrow") return iso(today + DAY);
  if (label === "week-end") return iso(Math.max(today, friday));
  if (label === "month-end") {
    const d = new Date(today);
    return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  }
  throw new Error(`no such due label: ${label}`);
}

/** Labelled items matched to lines, each item and each line once: the best pairs first. */
function match(labels, lines, text = (l) => l) {
  const pairs = [];
  const used = new Set();
  for (const label of labels) {
    const k = lines.findIndex((l, i) => !used.has(i) && states(text(label), l));
    if (k >= 0) {
      used.add(k);
      pairs.push([label, lines[k]]);
    }
  }
  return pairs;
}

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
  const t = {
    actions: 0,
    actionLines: 0,
    actionHits: 0,
    decisions: 0,
    decisionLines: 0,
    decisionHits: 0,
    owners: 0,
    ownersRight: 0,
    dues: 0,
    duesRight: 0,
    points: 0,
    cited: 0,
    supported: 0,
    duplicates: 0,
  };
  for (const [i, note] of notes.entries()) {
    const m = MEETINGS[i];
    const todo = sectionLines(note.enhancedNote, "Action items");
    const decided = sectionLines(note.enhancedNote, "Decisions");
    const pairs = match(m.actions, todo, (a) => a.text);
    t.actions += m.actions.length;
    t.actionLines += todo.length;
    t.actionHits += pairs.length;
    const speakers = new Set(note.transcripts.map((s) => s.speaker.toLowerCase()));
    const meetingAt = Date.parse(note.createdAt);
    for (const [label, line] of pairs) {
      const owner = /\(owner: ([^)]*)\)/.exec(line)?.[1]?.toLowerCase() ?? null;
      const due = /\(due: (\d{4}-\d\d-\d\d)\)/.exec(line)?.[1] ?? null;
      t.owners++;
      if (
        label.owner === "speaker"
          ? owner !== null && speakers.has(owner)
          : owner === (label.owner?.toLowerCase() ?? null)
      )
        t.ownersRight++;
      t.dues++;
      if (due === dueOn(label.due, meetingAt)) t.duesRight++;
    }
    const decidedPairs = match(m.decisions, decided);
    t.decisions += m.decisions.length;
    t.decisionLines += decided.length;
    t.decisionHits += decidedPairs.length;
    // Every point of the note, and the transcript line each citation names.
    const seconds = (ts) => ts.split(":").reduce((sum, part) => sum * 60 + Number(part), 0);
    const linesAt = note.transcripts.map((s) => [seconds(s.startTimestamp), s.text]);
    for (const line of note.enhancedNote.split("\n").filter((l) => /^- /.test(l))) {
      t.points++;
      const at = /\]\([^)]*#t=(\d+)\)/.exec(line)?.[1];
      if (at === undefined) continue;
      t.cited++;
      const said = linesAt.filter(([s]) => s <= Number(at)).pop()?.[1] ?? "";
      const point = new Set(wordsOf(line));
      if (wordsOf(said).some((w) => point.has(w))) t.supported++;
    }
    const sentences = (note.summary ?? "").split(/(?<=[.!?])\s+/).map((s) => s.toLowerCase().trim());
    if (new Set(sentences).size < sentences.length) t.duplicates++;
  }
  return {
    actionPrecision: t.actionHits / t.actionLines,
    actionRecall: t.actionHits / t.actions,
    decisionPrecision: t.decisionHits / t.decisionLines,
    decisionRecall: t.decisionHits / t.decisions,
    owners: t.ownersRight / t.owners,
    dues: t.duesRight / t.dues,
    cited: t.cited / t.points,
    supported: t.supported / t.cited,
    duplicates: t.duplicates,
  };
}

/** A meeting's own notes as the person typed them; a stamped line carries the time 3 s after its line's start. */
const ownNotesOf = (title, stamps) =>
  (OWN_NOTES[title] ?? [])
    .map((o) => (o.stamped && stamps ? `[${mmss(stamps(o.line) + 3)}] ${o.text}` : o.text))
    .map((t) => `- ${t}`)
    .join("\n");

/**
 * The own notes in the enhanced notes: each line of the person's once (its words, its
 * ACTION or TODO word aside), with the labelled line of the meeting first under it (the
 * line cited on it or below it), and each task a task of the note with its owner and day.
 */
function ownScore(notes) {
  const t = { lines: 0, once: 0, right: 0, tasks: 0, taskLines: 0, owners: 0, dues: 0 };
  for (const [i, note] of notes.entries()) {
    const labels = OWN_NOTES[MEETINGS[i].title];
    if (!labels) continue;
    const md = note.enhancedNote.split("\n");
    const seconds = (ts) => ts.split(":").reduce((sum, part) => sum * 60 + Number(part), 0);
    const linesAt = note.transcripts.map((s) => [seconds(s.startTimestamp), s.text]);
    const meetingAt = Date.parse(note.createdAt);
    for (const label of labels) {
      t.lines++;
      const words = label.text.replace(/^(ACTION|TODO)\s+/, "");
      const at = md.flatMap((l, k) => (l.includes(words) ? [k] : []));
      if (at.length === 1) t.once++;
      if (!at.length) continue;
      const cited = [
        md[at[0]],
        ...md.slice(at[0] + 1).filter((l, k, rest) => rest.slice(0, k + 1).every((r) => r.startsWith("  - "))),
      ]
        .map((l) => /\]\([^)]*#t=(\d+)\)/.exec(l)?.[1])
        .find((x) => x !== undefined);
      const said = cited === undefined ? "" : (linesAt.filter(([s]) => s <= Number(cited)).pop()?.[1] ?? "");
      if (said && states(MEETINGS[i].lines[label.line][1], said)) t.right++;
      if (label.task) {
        t.tasks++;
        const line = md[at[0]];
        if (/^- \[[ x]\] /.test(line)) t.taskLines++;
        const owner = /\(owner: ([^)]*)\)/.exec(line)?.[1] ?? null;
        if (owner === label.task.owner) t.owners++;
        if ((/\(due: (\d{4}-\d\d-\d\d)\)/.exec(line)?.[1] ?? null) === dueOn(label.task.due, meetingAt)) t.dues++;
      }
    }
  }
  return {
    lines: t.lines,
    once: t.once / t.lines,
    right: t.right / t.lines,
    taskLines: t.taskLines / t.tasks,
    owners: t.owners / t.tasks,
    dues: t.dues / t.tasks,
  };
}

/** The meetings spoken, uploaded and transcribed by the server's engine, as a new install does it. */
async function spokenNotes(server, dir) {
  const spoken = [];
  for (const [i, m] of MEETINGS.entries()) {
    const { file, seconds } = speak(m, dir, i);
    const audioUrl = await uploadRecording(server, file, "mp3", Math.ceil(seconds));
    const { noteId } = await api(server, "POST", "/v1/notes/from-audio", { audioUrl, title: m.title });
    let note = await untilCompleted(server, noteId);
    // The person's notes, written after the meeting (no stamps: the lines' times are the engine's), then enhanced.
    if (OWN_NOTES[m.title]) {
      await api(server, "PATCH", `/v1/notes/${noteId}`, { userWrittenNote: ownNotesOf(m.title, null) });
      await api(server, "POST", `/v1/notes/${noteId}/enhance`, {});
      note = await untilCompleted(server, noteId);
    }
    spoken.push(note);
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
        startTimestamp: mmss(k * 5),
        endTimestamp: mmss(k * 5 + 5),
      }));
      // A note made with a transcript is summarized with the workspace's default template (General meeting).
      // Held on a Wednesday: the due dates said are resolved against it.
      const { note } = await api(server, "POST", "/v1/notes", {
        title: m.title,
        transcripts,
        createdAt: "2026-03-04T10:00:00.000Z",
        userWrittenNote: ownNotesOf(m.title, (k) => k * 5),
      });
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
    const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)} %` : "—");
    const actions = MEETINGS.reduce((n, m) => n + m.actions.length, 0);
    const decisions = MEETINGS.reduce((n, m) => n + m.decisions.length, 0);
    console.log(
      `\nOffline summarizer on ${MEETINGS.length} hand-labelled meetings, ${actions} tasks and ${decisions} decisions (extractive, no language model)`,
    );
    console.log(
      "| | written transcript (baseline) | spoken, pocketsphinx | spoken, whisper base.en | goal (whisper) |",
    );
    console.log("|---|---:|---:|---:|---:|");
    const rowOf = (name, key, goal = "") =>
      console.log(`| ${name} | ${pct(w[key])} | ${pct(s[key])} | ${pct(h[key])} | ${goal} |`);
    rowOf("action items: precision", "actionPrecision", "≥ 85 %");
    rowOf("action items: recall", "actionRecall", "≥ 85 %");
    rowOf("decisions: precision", "decisionPrecision", "≥ 80 %");
    rowOf("decisions: recall", "decisionRecall", "≥ 80 %");
    rowOf("owners right, of the tasks found", "owners", "≥ 80 %");
    rowOf("due dates right, of the tasks found", "dues", "");
    rowOf("points citing a moment", "cited", "≥ 95 %");
    rowOf("citations whose line shares a word with the point", "supported", "≥ 90 %");
    console.log(`| summaries with a repeated sentence | ${w.duplicates} | ${s.duplicates} | ${h.duplicates} | 0 |`);
    console.log(`| Follow-up email left to a language model | | ${refused} of ${spoken.length} | | |`);
    const [ow, os_, oh] = [written, spoken, heard].map(ownScore);
    console.log(
      `\nThe person's own notes, woven in: ${ow.lines} labelled lines in ${Object.keys(OWN_NOTES).length} of the meetings (stamped ones on the written transcripts only)`,
    );
    console.log("| | written transcript | spoken, pocketsphinx | spoken, whisper base.en | goal |");
    console.log("|---|---:|---:|---:|---:|");
    const ownRow = (name, key, goal = "") =>
      console.log(`| ${name} | ${pct(ow[key])} | ${pct(os_[key])} | ${pct(oh[key])} | ${goal} |`);
    ownRow("lines of the person's shown exactly once", "once", "100 %");
    ownRow("lines with their meeting line first under them", "right", "≥ 80 %");
    ownRow("ACTION, TODO and @name lines made tasks", "taskLines", "100 %");
    ownRow("their owners right", "owners");
    ownRow("their due days right", "dues");
    return { written: w, spoken: s, whisper: h, refused, own: { written: ow, spoken: os_, whisper: oh } };
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
