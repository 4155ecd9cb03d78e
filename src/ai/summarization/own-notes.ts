// Your notes, woven in: the enhanced note is built on the lines a person wrote. Each line
// stays as it was written, under the heading that says whose it is, and beneath it go the
// transcript lines nearest to it: by time when the line was typed during the recording
// (it starts with the recording's time, "[12:05] pricing?"), and by the words it shares
// with what was said. A line that says ACTION, TODO or names someone with @ is a task of
// the note, written as a checklist line with its owner and due day, so it is one of the
// note's action items; the transcript's own tasks that say the same are left out of the
// template's sections after it. Nothing of the person's is shown twice or dropped.
import { momentFragment, notePath, secondsOf } from "../../shared/note-links.js";
import { dueDateOf } from "./due-dates.js";
import { contentWords } from "./citations.js";
import { actOf, mayName, type Act, type SpeechContext } from "./meeting-acts.js";
import type { TranscriptLine } from "./summarizer.js";

/** A tasks' section all of whose tasks the person wrote down says where they are. */
export const OWN_TASKS_ABOVE = "_The tasks are in your notes, above._";

/** One line a person wrote, read. */
export interface OwnLine {
  /** The line as written, without its stamp and list marker. */
  text: string;
  /** A heading of the person's ("## Pricing"), kept as a heading. */
  heading: boolean;
  /** The recording's time it was typed at, when it carries one. */
  stampSec: number | null;
  /** Set when the line is a task: its words, owner and due day. */
  task: { text: string; owner: string | null; due: string | null } | null;
}

/** A transcript line under one of the person's lines. */
export interface Support {
  index: number;
  line: TranscriptLine;
}

const STAMP = /^\[(\d{1,3}(?::\d{2}){1,2})\](?!\()\s*/;
const MARKER = /^(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/;
const CHECKBOX = /^[-*+]\s+\[[ xX]\]\s+/;
const TASK_WORD = /^(?:action(?:\s+items?)?|todo|to-do|task)\b\s*[:\-–]?\s*/i;
const MENTION = /(?:^|\s)@([\p{L}][\p{L}\p{M}'-]*)/u;
const DAY_SHORT: Record<string, string> = {
  mon: "monday",
  tue: "tuesday",
  tues: "tuesday",
  wed: "wednesday",
  thu: "thursday",
  thur: "thursday",
  thurs: "thursday",
  fri: "friday",
  sat: "saturday",
  sun: "sunday",
};
/** "Wed" as "wednesday": how a day written short is read. */
const spellDays = (s: string) => s.replace(/\b([A-Za-z]{3,5})\b/g, (w) => DAY_SHORT[w.toLowerCase()] ?? w);

/** How far before a stamp a line said is still what the stamp's line is about. */
const BEFORE_STAMP_SEC = 90;
const AFTER_STAMP_SEC = 15;
/** Transcript lines under one of the person's lines, at most. */
const MAX_SUPPORT = 2;
/** What a line shares with the person's line, at least, to go under it by words alone. */
const MIN_SHARED = 0.2;
/** A second line goes under only when it scores this share of the first's. */
const SECOND_LINE = 0.75;
/** Lines that steer the meeting rather than say something of it: never under a person's line. */
const STEERING: ReadonlySet<Act> = new Set(["courtesy", "agenda", "acknowledgement"]);

/** The person whose name a task gives, among the meeting's people, by first name too. */
function personNamed(word: string, people: readonly string[]): string | null {
  const w = word.toLowerCase();
  return people.find((p) => p.toLowerCase() === w) ?? people.find((p) => p.toLowerCase().split(/\s+/)[0] === w) ?? null;
}

function taskOf(text: string, checkbox: boolean, people: readonly string[], meetingAt: number): OwnLine["task"] {
  const marked = TASK_WORD.exec(text);
  const mention = MENTION.exec(text);
  if (!marked && !mention && !checkbox) return null;
  const words = marked ? text.slice(marked[0].length) : text;
  const first = /^[\p{L}][\p{L}\p{M}'-]*/u.exec(words)?.[0];
  // "@Tom …", or "ACTION David cost report": a person of the meeting, or a name they wrote.
  const owner = mention
    ? (personNamed(mention[1], people) ?? mention[1])
    : first && /^\p{Lu}/u.test(first)
      ? (personNamed(first, people) ?? (marked && mayName(first) ? first : null))
      : null;
  return { text: words.trim() || text, owner, due: dueDateOf(spellDays(words), meetingAt) };
}

/** The person's notes, line by line: blank lines and rules go, every other line is kept. */
export function ownLinesOf(markdown: string, people: readonly string[] = [], meetingAt = Date.now()): OwnLine[] {
  const out: OwnLine[] = [];
  for (const raw of markdown.split(/\r?\n/)) {
    let line = raw.trim();
    if (!line || /^(?:-{3,}|\*{3,}|_{3,})$/.test(line)) continue;
    const heading = /^#{1,6}\s+/.exec(line);
    if (heading) {
      out.push({ text: line.slice(heading[0].length).trim(), heading: true, stampSec: null, task: null });
      continue;
    }
    const checkbox = CHECKBOX.test(line);
    line = line.replace(MARKER, "");
    const stamp = STAMP.exec(line);
    const stampSec = stamp ? secondsOf(stamp[1]) : null;
    if (stamp) line = line.slice(stamp[0].length);
    if (!line) continue;
    out.push({ text: line, heading: false, stampSec, task: taskOf(line, checkbox, people, meetingAt) });
  }
  return out;
}

/**
 * The transcript lines to go under a line of the person's: those said shortly before its
 * stamp, the nearest first, and those that share its words, the most first; at most two,
 * in the order they were said.
 */
export function supportOf(
  own: OwnLine,
  transcript: readonly TranscriptLine[],
  ctx: Pick<SpeechContext, "names" | "meetingAt"> = { names: [], meetingAt: Date.now() },
): Support[] {
  const mine = new Set(contentWords(own.task?.text ?? own.text));
  const scored: { index: number; score: number }[] = [];
  const says = (line: TranscriptLine) => !STEERING.has(actOf(line.text, { ...ctx, speaker: line.speaker }));
  for (const [index, line] of transcript.entries()) {
    const theirs = new Set(contentWords(line.text));
    const shared = [...mine].filter((w) => theirs.has(w)).length;
    const words = shared && mine.size && theirs.size ? shared / Math.sqrt(mine.size * theirs.size) : 0;
    let near = 0;
    const at = secondsOf(line.at);
    if (own.stampSec !== null && at !== null) {
      const ahead = own.stampSec - at;
      if (ahead >= -AFTER_STAMP_SEC && ahead <= BEFORE_STAMP_SEC) near = 0.5 * (1 - Math.abs(ahead) / BEFORE_STAMP_SEC);
    }
    if ((words >= MIN_SHARED || (near > 0 && (words > 0 || mine.size === 0))) && says(line))
      scored.push({ index, score: words + near });
  }
  // A stamped line with no words in common is about what was said just before it.
  if (!scored.length && own.stampSec !== null) {
    let last = -1;
    for (const [index, line] of transcript.entries()) {
      const at = secondsOf(line.at);
      if (at !== null && at <= own.stampSec && own.stampSec - at <= BEFORE_STAMP_SEC && says(line)) last = index;
    }
    if (last >= 0) scored.push({ index: last, score: 0 });
  }
  scored.sort((a, b) => b.score - a.score);
  // A second line only when it is nearly as close as the first: one good line beats two loose ones.
  const kept = scored.filter((c, i) => i === 0 || c.score >= SECOND_LINE * scored[0].score).slice(0, MAX_SUPPORT);
  // A task cites its best line first; a note's lines go in the order they were said.
  if (!own.task) kept.sort((a, b) => a.index - b.index);
  return kept.map(({ index }) => ({ index, line: transcript[index] }));
}

const clip = (s: string, max = 200) => (s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s);

function moment(line: TranscriptLine, noteId: string | undefined): string {
  const at = secondsOf(line.at);
  if (at === null) return "";
  return ` [${line.at}](${noteId ? notePath(noteId, at) : momentFragment(at)})`;
}

export interface WovenNotes {
  /** The section's body: the person's lines, each with what was said under it. */
  markdown: string;
  /** The transcript lines under the person's tasks: the template's sections leave their tasks out. */
  taskSupport: Set<number>;
  lines: OwnLine[];
}

/** The person's notes with what was said woven under each line; null when they wrote none. */
export function weaveOwnNotes(input: {
  userWrittenNote: string;
  transcript: readonly TranscriptLine[];
  noteId?: string;
  people?: readonly string[];
  meetingAt?: number;
}): WovenNotes | null {
  const people = [
    ...new Set([
      ...(input.people ?? []),
      ...input.transcript.map((l) => l.speaker).filter((s) => s && !/^speaker\b/i.test(s)),
    ]),
  ];
  const meetingAt = input.meetingAt ?? Date.now();
  const lines = ownLinesOf(input.userWrittenNote, people, meetingAt);
  if (!lines.length) return null;
  const out: string[] = [];
  const taskSupport = new Set<number>();
  for (const own of lines) {
    if (own.heading) {
      out.push(`### ${own.text}`);
      continue;
    }
    const support = supportOf(own, input.transcript, { names: people, meetingAt });
    // A stamped line nothing was found for still links to the moment it was typed at.
    const stamp =
      own.stampSec !== null && !support.length
        ? ` [${stampText(own.stampSec)}](${input.noteId ? notePath(input.noteId, own.stampSec) : momentFragment(own.stampSec)})`
        : "";
    if (own.task) {
      for (const s of support) taskSupport.add(s.index);
      const owner = own.task.owner ? ` (owner: ${own.task.owner})` : "";
      const due = own.task.due ? ` (due: ${own.task.due})` : "";
      out.push(`- [ ] ${own.task.text}${owner}${due}${support[0] ? moment(support[0].line, input.noteId) : stamp}`);
    } else out.push(`- ${own.text}${stamp}`);
    for (const s of own.task ? support.slice(1) : support)
      out.push(`  - ${s.line.speaker}: ${clip(s.line.text)}${moment(s.line, input.noteId)}`);
  }
  return { markdown: out.join("\n"), taskSupport, lines };
}

/** Whether a task said in the meeting is one the person wrote down: most of their task's words again. */
export function repeatsOwnTask(text: string, woven: WovenNotes): boolean {
  const words = new Set(
    contentWords(spellDays(text.replace(/\(owners?:[^)]*\)|\(due:[^)]*\)|\[[^\]]*\]\([^)]*\)/gi, " "))),
  );
  return woven.lines.some((l) => {
    if (!l.task) return false;
    const own = new Set(contentWords(spellDays(l.task.text)));
    return own.size > 0 && [...own].filter((w) => words.has(w)).length / own.size >= 0.5;
  });
}

/** A model's section without the task lines that repeat one the person wrote: the person's line is the item, once. */
export function withoutOwnTasks(markdown: string, woven: WovenNotes): string {
  return markdown
    .split("\n")
    .filter((line) => !(/^\s*[-*]\s+\[[ xX]\]\s+/.test(line) && repeatsOwnTask(line, woven)))
    .join("\n");
}

const stampText = (sec: number) =>
  `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(Math.floor(sec % 60)).padStart(2, "0")}`;

/**
 * Whether an enhanced note holds the person's notes as they stand now, every line of
 * them: the note page then shows them once, there, rather than again beside it.
 */
export function wovenIn(userWrittenNote: string, enhancedNote: string): boolean {
  if (!/^## Your notes$/m.test(enhancedNote)) return false;
  return ownLinesOf(userWrittenNote).every((l) => enhancedNote.includes(l.task?.text ?? l.text));
}
