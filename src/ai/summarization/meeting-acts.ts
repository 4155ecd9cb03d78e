// What a sentence of a meeting does: greets, steers the agenda, asks, acknowledges,
// decides, takes on a task, or says something. The offline summary lists a decision
// only when one was made and a task only when someone takes it on or is asked to
// ("I'll send…", "Tom, can you fix…", "David will…"); the courtesies, the agenda talk,
// the questions and the "good point"s never become a point of the note.
import { isSmallTalk } from "../ask/small-talk.js";
import { dueDateOf } from "./due-dates.js";

export type Act = "courtesy" | "agenda" | "question" | "acknowledgement" | "decision" | "action" | "statement";

export interface ActionItem {
  /** The task as it was said, without a leading "Action item:" label. */
  task: string;
  /** Who takes it on: a person named, or the speaker for "I'll…"; null when nobody was. */
  owner: string | null;
  /** YYYY-MM-DD, from the words ("by Wednesday"), resolved against the meeting's day. */
  due: string | null;
}

export interface SpeechContext {
  speaker: string;
  /** Names of the meeting's people (participants, named speakers): a lower-case transcript's names are these. */
  names: readonly string[];
  /** The meeting's day, for due dates (ms since the epoch). */
  meetingAt: number;
}

/** Verbs a task starts with: what an imperative, a request or "we need to" asks done. */
const TASK_VERBS =
  "add|answer|approve|arrange|ask|book|build|buy|call|cancel|change|check|circulate|clean|collect|compile|compress|confirm|contact|create|deliver|deploy|design|document|draft|email|file|finish|find|fix|follow|get|give|hire|implement|inform|install|interview|invite|investigate|look into|make|measure|migrate|move|order|organise|organize|pay|plan|post|prepare|present|print|publish|put together|reach out|release|remove|renew|reply|research|reserve|review|run|schedule|send|set up|share|sign|sort out|speak to|submit|summarise|summarize|take care of|talk to|tell|test|train|translate|update|upgrade|upload|write"
    .split("|")
    .join("|");
const TASK_VERB = new RegExp(`^(?:${TASK_VERBS})\\b`, "i");

/** Words a sentence may start with in capitals that name no one. */
const NOT_NAMES = new Set(
  "a all an and another anyone anything as at because both but customers each either everybody everyone everything finance for he her his how i if in it its legal maybe management marketing most my neither nobody none nothing now once one our people product sales she so some somebody someone something support that the their them then there these they this those today tomorrow users we what when where which who why yes you your".split(
    " ",
  ),
);

/** Whether a capitalised word that opens a task may be whom it is for ("David cost report"), not a verb or a common word. */
export const mayName = (word: string) =>
  /^\p{Lu}[\p{Ll}\p{M}'-]+$/u.test(word) && !NOT_NAMES.has(word.toLowerCase()) && !TASK_VERB.test(word);

const LABEL = /^(?:action items?|next steps?|to-?dos?)\s*[:,\-–]?\s*/i;
const COMMITMENT =
  /\b(i'll|i will|i am going to|i'm going to|i can take|i'll take|let me|i volunteer to|i can do)\b\s*(\w+)?/i;
/** "I'll…" that promises no task: a manner of speaking, or something done right now. */
const NOT_A_TASK_AFTER =
  /^(be|say|just|start|begin|show|explain|think|see|try|admit|go|pass|hand|stop|leave|keep|repeat|summarize|summarise|recap)$/i;
/** What is done there and then, not taken on: "let me share my screen". */
const RIGHT_NOW = /\b(share|present|stop sharing) (my|the) screen\b|\bunmute\b/i;
/** Words before a subject that make it no person: "the team will…", "our customers will…". */
const DETERMINER = /^(the|a|an|our|your|their|my|his|her|its|this|that|these|those|every|each|some|any|no)$/i;
const AGENDA = [
  /\b(let's|let us|we'll|we will|we can|i'd like to|i want to)\s+(now\s+)?(start|begin|get started|kick off|go through|go over|look at|talk about|discuss|move on|turn to|wrap up|run through|dive in|jump in|review the agenda)\b/i,
  /\b(first|next|last|second|third|final|other)\s+(item|topic|point on the agenda|agenda item)\b/i,
  /\bon (the|our|today's) agenda\b/i,
  /\b(today|this meeting|in this call)\b.{0,20}\b(we('ll| will| are going to)|i('d| would) like to)\s+(look|talk|discuss|go|review|cover)/i,
  /\bmoving on\b/i,
  /\bthe (purpose|goal|point) of (this|today's) (meeting|call|session)\b/i,
  /^(welcome to|thanks for joining)\b/i,
  /\b(that's|that is) (it|all|everything) (for|from)\b/i,
];
const ACKNOWLEDGEMENTS =
  /\b(good|great|fair|excellent|valid) (point|question|idea)\b|\b(sounds good|makes sense|i agree|agreed|exactly|sure|got it|perfect|absolutely|fair enough|of course|no problem|definitely|i see|right|true|nice|cool|indeed|will do)\b/gi;
const DECISION =
  /\b(we('ve| have)? (decided|agreed)|we agree (to|that|on)|decided to|agreed (to|that|on)|(we're|we are|we'll|we will|let's|let us) (go|going) with|settled on|(is|was|were|are) approved|we approved|the decision (is|was)|decision:|(we'll|we will) stick with|final(ly)? (decided|agreed))\b/i;
const QUESTION_START =
  /^(what|why|how|when|where|who|whom|which|do|does|did|is|are|was|were|have|has|shall|should we|could we|can we|can i|may i|would it|any (questions|thoughts|comments)|anyone)\b/i;
const REQUEST = new RegExp(`\\b(can|could|would|will) you (please )?((?:${TASK_VERBS})\\b.*)$`, "i");
const PLEASE = new RegExp(`^(?:please\\s+)((?:${TASK_VERBS})\\b.*)$`, "i");
const NEED = new RegExp(`\\b(we|i) (need|needs|have|has|must|should) (to )?((?:${TASK_VERBS})\\b)`, "i");
const WE_WILL = new RegExp(`\\b(we'll|we will|we are going to|we're going to) ((?:${TASK_VERBS})\\b)`, "i");
const ASSIGNED =
  /\b([\p{L}][\p{L}'-]*(?: [\p{Lu}][\p{L}'-]*)?)(?:,)?\s+(will|'ll|is going to|needs to|has to|should|is to|agreed to|offered to|volunteered to|can take|to)\s+(\w+)/gu;
const PRONOUN_DOER = /\b(he|she|they)('ll| will| is going to| needs to| has to| should)\s+(\w+)/i;

/** Boundaries inside a run-on line, where the next thought starts ("… everyone let's start …"). */
const CUES =
  "action items?|next steps?|to-?dos?|let's|let us|i'll|i will|we decided|we agreed|we agree|we've decided|we've agreed|decided to|agreed to|good (?:morning|afternoon|evening)|thanks|thank you|welcome|okay|alright|all right|first item|next item|first topic|next topic|moving on|any (?:other )?questions|good point|sounds good|what about|should we|can you|could you";
/** Where a run-on line gives someone a task ("… fall needs to prepare the contract"), unless "the", "our" … come before. */
const DOER_CUT = `(?<!\\b(?:the|our|your|their|a|an|my|this|that|his|her)\\s+)[\\p{L}']+(?:,)?\\s+(?:will|needs to|is going to|has to)\\s+(?:${TASK_VERBS})\\b`;

/**
 * The sentences of a line: split at its punctuation, and a run-on line (a speech
 * engine's, unpunctuated) also where a cue or a known name starts the next thought.
 */
export function sentencesOf(text: string, names: readonly string[] = []): string[] {
  const who = names
    .map((n) => n.trim().split(/\s+/)[0])
    .filter((n) => n && n.length > 1)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const namePart = who.length
    ? `|(?:${who.join("|")})(?=,?\\s+(?:will|can you|could you|needs to|is going to|to)\\b)`
    : "";
  // The separator is kept (captured), so that a cut put back reads as it was said.
  const cut = new RegExp(`(,\\s*|\\s+)(?=(?:${CUES})\\b${namePart}|${DOER_CUT})`, "iu");
  const out: string[] = [];
  for (const part of text.split(/(?<=[.!?])\s+/)) {
    const pieces = part.split(cut);
    // A cue is cut off only where both sides keep a few words: "thanks David" stays one.
    let acc = pieces[0].trim();
    for (let i = 1; i < pieces.length; i += 2) {
      const p = pieces[i + 1].trim();
      if (!acc || p.split(/\s+/).length < 3 || acc.split(/\s+/).length < 2) acc = `${acc}${pieces[i]}${p}`.trim();
      else {
        out.push(acc);
        acc = p;
      }
    }
    if (acc) out.push(acc);
  }
  return out.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

const stripLead = (s: string) => s.replace(/^(?:(?:so|and|okay|ok|alright|then|also|well|um|uh),?\s+)+/i, "");

function isAcknowledgement(s: string): boolean {
  const rest = s.replace(ACKNOWLEDGEMENTS, " ");
  if (rest === s) return false;
  // Its acknowledgements taken away, a name or two at most is left ("Good point, David.").
  return isSmallTalk(rest) || (rest.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 2;
}

/** Whether the sentence is a question that asks for no task. */
function isQuestion(s: string): boolean {
  return /\?\s*$/.test(s) || QUESTION_START.test(stripLead(s));
}

/** A word that names a person of the meeting: one of the names known, or a capitalised word that is no common subject. */
function personNamed(
  word: string,
  names: readonly string[],
  sentenceStart: boolean,
  lowerCaseText: boolean,
): string | null {
  const first = word.split(" ")[0];
  const known = names.find(
    (n) => n.toLowerCase() === word.toLowerCase() || n.split(/\s+/)[0].toLowerCase() === first.toLowerCase(),
  );
  if (known) return sentenceStart || lowerCaseText ? known : word;
  if (lowerCaseText || NOT_NAMES.has(first.toLowerCase())) return null;
  if (!/^\p{Lu}/u.test(first)) return null;
  // A capitalised word opening a sentence is a name only when it is not a common subject.
  return word;
}

/** The task a sentence gives someone, with its owner and due date; null when it gives none. */
export function actionOf(sentence: string, ctx: SpeechContext): ActionItem | null {
  const said = stripLead(sentence.trim());
  const labelled = LABEL.test(said);
  const body = stripLead(said.replace(LABEL, ""));
  const lower = body === body.toLowerCase();
  const due = () => dueDateOf(body, ctx.meetingAt);
  const item = (owner: string | null): ActionItem => ({ task: body, owner, due: due() });
  if (!body || body.split(/\s+/).length < 2) return null;

  const commitment = COMMITMENT.exec(body);
  if (commitment && !NOT_A_TASK_AFTER.test(commitment[2] ?? "") && !RIGHT_NOW.test(body))
    return item(ctx.speaker || null);

  // "Tom, can you fix the login bug?", "can you send it, Tom": a request of a named person, or of whoever listens.
  const request = REQUEST.exec(body);
  if (request) {
    const before = body.slice(0, request.index).replace(/[,\s]+$/, "");
    const after = /,\s*([\p{L}][\p{L}'-]*)\s*[?.!]*$/u.exec(body)?.[1];
    const named = [before.split(/\s+/).pop() ?? "", after ?? ""]
      .map((w) => (w ? personNamed(w, ctx.names, false, lower) : null))
      .find(Boolean);
    return item(named ?? null);
  }
  if (isQuestion(body)) return null;
  const please = PLEASE.exec(body);
  if (please) return item(null);

  // "The team will send…": a task given to no one person.
  let unnamed = false;
  for (const m of body.matchAll(ASSIGNED)) {
    const [, who, verb, next] = m;
    if (verb !== "to" && TASK_VERB.test(next)) unnamed = true;
    if (/^(be|have|probably|likely|also)$/i.test(next) && verb !== "to") continue;
    if (verb === "to" && !TASK_VERB.test(next)) continue;
    const known = ctx.names.some((n) => n.toLowerCase().split(/\s+/)[0] === who.toLowerCase().split(" ")[0]);
    if (lower && !known) {
      // A lower-case transcript (a speech engine's) names people in lower case too: a word
      // that gets a task is taken for a name when it is no common subject after "the" or "our".
      const before = body.slice(0, m.index).trim().split(/\s+/).pop() ?? "";
      if (
        verb === "to" ||
        !TASK_VERB.test(next) ||
        DETERMINER.test(before) ||
        NOT_NAMES.has(who.toLowerCase()) ||
        who.includes(" ")
      )
        continue;
      return item(who.charAt(0).toUpperCase() + who.slice(1));
    }
    const owner = personNamed(who, ctx.names, m.index === 0, lower);
    if (owner) return item(owner);
  }
  const pronoun = PRONOUN_DOER.exec(body);
  if (unnamed || (pronoun && TASK_VERB.test(pronoun[3]))) return item(null);
  const need = NEED.exec(body);
  if (need) return item(need[1].toLowerCase() === "i" ? ctx.speaker || null : null);
  if (WE_WILL.test(body)) return item(null);
  // "Send a survey to everyone.": an imperative gives the task to the room.
  if (TASK_VERB.test(body)) return item(null);
  // "Action item: the budget for the offsite." names a task by its label alone.
  if (labelled) return item(null);
  return null;
}

/** What a sentence does in the meeting. */
export function actOf(sentence: string, ctx: SpeechContext): Act {
  const s = sentence.trim();
  if (isSmallTalk(s)) return "courtesy";
  if (AGENDA.some((a) => a.test(s)) && !DECISION.test(s)) return "agenda";
  if (isAcknowledgement(s)) return "acknowledgement";
  if (DECISION.test(s) && !/\?\s*$/.test(s) && !LABEL.test(stripLead(s))) return "decision";
  if (actionOf(s, ctx)) return "action";
  if (isQuestion(s)) return "question";
  return "statement";
}
