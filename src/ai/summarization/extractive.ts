// The local summary, used when no LLM is configured: no network, no language model.
// The summary is the sentences that carry the meeting's most frequent content words.
// The enhanced note follows the template: each section gets the transcript sentences
// closest in meaning to its title and instructions (sentence embeddings, from the
// bundled model when there is one, else shared words), each sentence in one section
// only, in the order they were said.
import type { Embedder } from "../embeddings/embedder.js";
import { assembleNote } from "../templates/sections.js";
import { OWN_TASKS_ABOVE, repeatsOwnTask, weaveOwnNotes } from "./own-notes.js";
import type { TemplateSpec } from "../templates/builtin.js";
import type { Summarizer, SummaryInput, SummaryResult } from "./summarizer.js";
import { actOf, actionOf, sentencesOf as splitSentences, type Act, type ActionItem } from "./meeting-acts.js";
import { notePath, momentFragment, secondsOf } from "../../shared/note-links.js";

const STOPWORDS = new Set(
  "a an and are as at be been but by can could did do does for from had has have he her his i if in into is it its just let like me my no not of on or our out so than that the their them then there these they this to too up us was we were what when which who will with would you your yeah okay ok um uh so well also about all any get got going know think really right".split(
    " ",
  ),
);
/** Sections that ask for decisions or for tasks: the cue phrases above count for them. */
const DECISION_SECTION = /\bdecisions?\b(?! makers?)|\bagreed|\bdecided/i;
const ACTION_SECTION = /\baction|\btask|\bto ?do\b|next step|follow.?up|- \[ \]/i;
/** Sections that ask for the gist: they take the meeting's most salient sentences that no other section claimed. */
const OVERVIEW_SECTION =
  /key points|main (topics|points)|summary|overview|highlights|tl;?dr|recap|gist|how things are going|email/i;
/**
 * Sections an extract cannot write: composed prose (an email, its subject line). Without
 * a language model they say so instead of stringing quotes together.
 */
const COMPOSED_SECTION =
  /^(subject|e-?mail|letter|message)\b|\b(an? (short |brief |friendly )*(email|letter|message) to\b|a subject for\b)/i;
export const NEEDS_MODEL =
  "_Writing this section needs a language model: set one up in Settings → AI, then write the note again._";
/** At most this many sentences are compared (the most salient), so a 4-hour meeting stays quick. */
const MAX_CANDIDATES = 600;
/**
 * A sentence belongs to a section when it stands out for that section: its similarity
 * at least this many standard deviations above the section's mean over the meeting's
 * sentences. Relative, because small embedding models score everything alike.
 */
const MIN_STANDOUT = 1;
/** And never when it shares next to nothing with the section (raw cosine). */
const MIN_SIMILARITY = 0.1;

interface Sentence {
  text: string;
  speaker: string;
  index: number;
  salience: number;
  /** Seconds into the recording of the line it was said in; null when the line has no time. */
  at: number | null;
  /** The line's time as the transcript gives it ("01:05"). */
  said: string;
  act: Act;
  action: ActionItem | null;
  /** The transcript line it was said in, by position. */
  line: number;
}

/** The words of a sentence, as compared for repeats: case, punctuation and spacing aside. */
const normal = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).join(" ");

/** The people of a meeting by name: its participants and its named speakers. */
function peopleOf(input: SummaryInput): string[] {
  const named = input.transcript.map((l) => l.speaker).filter((n) => n && !/^speaker\b/i.test(n));
  return [...new Set([...(input.people ?? []), ...named].map((n) => n.trim()).filter(Boolean))];
}

/**
 * The transcript's sentences, each once: a sentence said again (engines repeat a line
 * across windows, people repeat themselves) is kept where it was first said. A run-on
 * line is cut where its next thought starts before its sentences are judged.
 */
function sentencesOf(input: SummaryInput): Sentence[] {
  const out: Sentence[] = [];
  const seen = new Set<string>();
  const names = peopleOf(input);
  const meetingAt = input.meetingAt ?? Date.now();
  for (const [position, line] of input.transcript.entries()) {
    for (const raw of splitSentences(line.text, names)) {
      const text = raw.trim();
      const key = normal(text);
      if (text.split(/\s+/).length < 3 || seen.has(key)) continue;
      seen.add(key);
      const ctx = { speaker: line.speaker, names, meetingAt };
      const act = actOf(text, ctx);
      out.push({
        text,
        speaker: line.speaker,
        index: out.length,
        salience: 0,
        at: secondsOf(line.at),
        said: line.at,
        act,
        action: act === "action" ? actionOf(text, ctx) : null,
        line: position,
      });
    }
  }
  return out;
}

/** Whether two sentences say nearly the same words (a repeat with a word changed). */
function nearlySame(a: string, b: string): boolean {
  const x = new Set(words(a));
  const y = new Set(words(b));
  if (!x.size || !y.size) return false;
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / (x.size + y.size - shared) >= 0.8;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .match(/[\p{L}\p{N}']+/gu)
    ?.filter((w) => !STOPWORDS.has(w) && w.length > 2) ?? [];

function capitalise(s: string) {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function scoreSalience(sentences: Sentence[]) {
  const freq = new Map<string, number>();
  for (const s of sentences) for (const w of words(s.text)) freq.set(w, (freq.get(w) ?? 0) + 1);
  let max = 0;
  for (const s of sentences) {
    const ws = words(s.text);
    s.salience = ws.reduce((sum, w) => sum + (freq.get(w) ?? 0), 0) / Math.sqrt(ws.length || 1);
    max = Math.max(max, s.salience);
  }
  for (const s of sentences) s.salience = max ? s.salience / max : 0;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);

const stem = (w: string) => w.replace(/(ies|es|s|ing|ed)$/, "");

/** Similarity of every sentence to every section: embeddings where available, plus the content words they share. */
async function similarities(sentences: Sentence[], queries: string[], embedder: Embedder | null): Promise<number[][]> {
  const qWords = queries.map((q) => new Set(words(q).map(stem)));
  const shared = sentences.map((s) => {
    const ws = new Set(words(s.text).map(stem));
    return qWords.map((q) => [...ws].filter((w) => q.has(w)).length);
  });
  if (embedder) {
    try {
      const vectors = await embedder.embed([...queries, ...sentences.map((s) => s.text)], { background: true });
      const q = vectors.slice(0, queries.length);
      return sentences.map((_, i) =>
        q.map((v, k) => dot(v, vectors[queries.length + i]) + 0.1 * Math.min(3, shared[i][k])),
      );
    } catch {
      // The model failed to load: shared words still shape the note.
    }
  }
  return sentences.map((s, i) =>
    qWords.map((q, k) =>
      shared[i][k] ? shared[i][k] / Math.sqrt(new Set(words(s.text)).size * q.size) + MIN_SIMILARITY : 0,
    ),
  );
}

/** Each column as standard scores: how far each sentence stands out for that section. */
function standout(sims: number[][]): number[][] {
  if (sims.length < 4) return sims.map((row) => row.map((x) => (x >= MIN_SIMILARITY ? MIN_STANDOUT : 0)));
  const cols = sims[0].length;
  const out = sims.map((row) => [...row]);
  for (let k = 0; k < cols; k++) {
    const col = sims.map((row) => row[k]);
    const mean = col.reduce((a, b) => a + b, 0) / col.length;
    const sd = Math.sqrt(col.reduce((a, b) => a + (b - mean) ** 2, 0) / col.length) || 1;
    for (let i = 0; i < sims.length; i++) out[i][k] = (sims[i][k] - mean) / sd;
  }
  return out;
}

/** Acts that are never a point of the note: they steer the meeting, they say nothing of it. */
const NOT_A_POINT: ReadonlySet<Act> = new Set(["courtesy", "agenda", "question", "acknowledgement"]);

/** A link to the moment a sentence was said, in the one form of note links. */
function citation(s: Sentence, noteId: string | undefined): string {
  if (s.at === null) return "";
  return ` [${s.said}](${noteId ? notePath(noteId, s.at) : momentFragment(s.at)})`;
}

/** A task as its checklist line: the task, who takes it on, when it is due. */
function taskLine(s: Sentence): string {
  const a = s.action ?? { task: s.text, owner: null, due: null };
  const owner = a.owner ? ` (owner: ${a.owner})` : "";
  const due = a.due ? ` (due: ${a.due})` : "";
  return `- [ ] ${capitalise(asTask(a.task))}${owner}${due}`;
}

async function fillSections(
  template: TemplateSpec,
  sentences: Sentence[],
  embedder: Embedder | null,
  noteId: string | undefined,
): Promise<Map<number, string>> {
  const bodies = new Map<number, string>();
  const points = sentences.filter((s) => !NOT_A_POINT.has(s.act));
  const kinds = template.sections.map((s) => ({
    composed: COMPOSED_SECTION.test(s.title) || COMPOSED_SECTION.test(s.instructions),
    decisions: DECISION_SECTION.test(`${s.title} ${s.instructions}`),
    actions: ACTION_SECTION.test(`${s.title} ${s.instructions}`),
    overview: OVERVIEW_SECTION.test(s.title),
    checkbox: /- \[ \]/.test(s.instructions) || ACTION_SECTION.test(s.title),
  }));
  for (const [k, kind] of kinds.entries()) if (kind.composed) bodies.set(k, NEEDS_MODEL);
  if (!points.length) return bodies;
  const hasTasks = kinds.some((k) => k.actions && !k.composed);
  const hasDecisions = kinds.some((k) => k.decisions && !k.actions && !k.composed);
  // Where the template has a place for them, a decision goes only there and a task only
  // with the tasks; those places take nothing else.
  const placeOf = (s: Sentence) =>
    s.act === "action" && hasTasks ? "actions" : s.act === "decision" && hasDecisions ? "decisions" : "points";
  const fits = (s: Sentence, k: number) => {
    const kind = kinds[k];
    if (kind.composed) return false;
    const place = placeOf(s);
    if (place === "actions") return kind.actions;
    if (place === "decisions") return kind.decisions && !kind.actions;
    return !(hasTasks && kind.actions) && !(hasDecisions && kind.decisions);
  };
  // Every task and decision is compared; of the rest, the most salient.
  const salient = [...points].sort((a, b) => b.salience - a.salience);
  const candidates = [
    ...salient.filter((s) => placeOf(s) !== "points"),
    ...salient.filter((s) => placeOf(s) === "points").slice(0, MAX_CANDIDATES),
  ];
  const queries = template.sections.map((s) => `${s.title}. ${s.instructions}`);
  const sims = await similarities(candidates, queries, embedder);
  const z = standout(sims);
  const perSection = Math.min(6, Math.max(2, Math.ceil(candidates.length / (template.sections.length * 2))));
  // Decisions and tasks are each worth a line however many there are: their cues keep them few.
  const capOf = (k: number) => (kinds[k].actions || kinds[k].decisions ? 12 : perSection);
  const chosen = template.sections.map(() => [] as { s: Sentence; score: number }[]);
  const used = new Set<Sentence>();
  for (const [i, s] of candidates.entries()) {
    const placed = placeOf(s) !== "points";
    let best = -1;
    let bestScore = -Infinity;
    for (const k of kinds.keys()) {
      if (!fits(s, k)) continue;
      if (!placed && sims[i][k] < MIN_SIMILARITY) continue;
      if (z[i][k] > bestScore) [best, bestScore] = [k, z[i][k]];
    }
    // A task or a decision needs no standing out: what it is decides where it goes.
    if (best >= 0 && (placed || bestScore >= MIN_STANDOUT)) chosen[best].push({ s, score: bestScore });
  }
  for (const [k, list] of chosen.entries()) {
    list.sort((a, b) => b.score - a.score).splice(capOf(k));
    for (const { s } of list) used.add(s);
  }
  // The gist sections take the most salient sentences left.
  for (const [k, kind] of kinds.entries()) {
    if (!kind.overview || kind.composed) continue;
    for (const s of candidates) {
      if (chosen[k].length >= Math.min(perSection, 5)) break;
      if (!used.has(s) && fits(s, k)) {
        chosen[k].push({ s, score: 0 });
        used.add(s);
      }
    }
  }
  for (const [k, list] of chosen.entries()) {
    if (kinds[k].composed) continue;
    const top = [...list].sort((a, b) => a.s.index - b.s.index);
    if (!top.length) continue;
    bodies.set(
      k,
      top
        .map(({ s }) => (kinds[k].checkbox ? taskLine(s) : `- ${capitalise(s.text)}`) + citation(s, noteId))
        .join("\n"),
    );
  }
  return bodies;
}

/** A task as a checklist line says it: "action item: schedule …" is "schedule …". */
const asTask = (text: string) => text.replace(/^(?:action items?|next steps?|to-?dos?)\s*[:,-]?\s*/i, "") || text;

export async function extractiveSummary(input: SummaryInput, embedder: Embedder | null = null): Promise<SummaryResult> {
  const woven = weaveOwnNotes({ ...input, people: peopleOf(input) });
  // A task the person wrote down is theirs: the line it came from is not a second task.
  const sentences = sentencesOf(input).filter(
    (s) =>
      !(
        s.act === "action" &&
        woven &&
        (woven.taskSupport.has(s.line) || repeatsOwnTask(s.action?.task ?? s.text, woven))
      ),
  );
  scoreSalience(sentences);
  const points = sentences.filter((s) => !NOT_A_POINT.has(s.act));
  const count = Math.min(5, Math.max(1, Math.ceil(points.length / 6)));
  // The most salient sentences that say something, none a near-repeat of one already taken.
  const top: Sentence[] = [];
  for (const s of [...points].sort((a, b) => b.salience - a.salience)) {
    if (top.length >= count) break;
    if (!top.some((t) => nearlySame(t.text, s.text))) top.push(s);
  }
  top.sort((a, b) => a.index - b.index);
  // Each sentence cites the moment it was said, as the enhanced note's points do.
  const summary = top.length
    ? top.map((s) => capitalise(s.text) + citation(s, input.noteId)).join(" ")
    : sentences.length
      ? "Nothing was said beyond greetings, questions and the agenda."
      : "The recording holds no recognisable speech.";
  const bodies = await fillSections(input.template, sentences, embedder, input.noteId);
  // The person's tasks are theirs, in their notes: the tasks' section says where, rather than "nothing".
  if (woven?.lines.some((l) => l.task))
    for (const [k, section] of input.template.sections.entries())
      if (!bodies.has(k) && ACTION_SECTION.test(`${section.title} ${section.instructions}`))
        bodies.set(k, OWN_TASKS_ABOVE);
  // Who wrote it is the note's processing record (processingInfo.summary), shown on its
  // page to those who can change it: the text itself is the meeting's, shared and exported.
  const enhancedNote = assembleNote(input.template, bodies, { ownNotes: woven?.markdown });
  const base = (code: string) => code.split("-")[0];
  const otherLanguage =
    input.language && (!input.meetingLanguage || base(input.language) !== base(input.meetingLanguage));
  const warnings = otherLanguage
    ? [`The note is in the meeting's own language: writing it in another (${input.language}) needs a language model.`]
    : [];
  // Extraction quotes the meeting: it writes in the meeting's language only.
  return { summary, enhancedNote, warnings, language: null };
}

export function createExtractiveSummarizer(opts: { embedder?: Embedder | null } = {}): Summarizer {
  return {
    name: "extractive",
    summarize: (input) => extractiveSummary(input, opts.embedder ?? null),
  };
}
