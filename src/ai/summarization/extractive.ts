// The local summary, used when no LLM is configured: no network, no model. It picks
// the sentences that carry the meeting's most frequent content words, and sorts
// sentences that announce decisions or tasks into their own sections.
import type { Summarizer, SummaryInput, SummaryResult } from "./summarizer.js";

const STOPWORDS = new Set(
  "a an and are as at be been but by can could did do does for from had has have he her his i if in into is it its just let like me my no not of on or our out so than that the their them then there these they this to too up us was we were what when which who will with would you your yeah okay ok um uh so well also about all any get got going know think really right".split(" "),
);
const DECISION = /\b(decided|decide|agreed|agree|we will|we'll|going with|approved|settled on|conclusion)\b/i;
const ACTION = /\b(will|i'll|need to|needs to|should|action item|todo|to-do|follow up|follow-up|by (monday|tuesday|wednesday|thursday|friday|tomorrow|next week|end of))\b/i;

interface Sentence {
  text: string;
  speaker: string;
  index: number;
  score: number;
}

function sentencesOf(input: SummaryInput): Sentence[] {
  const out: Sentence[] = [];
  for (const line of input.transcript) {
    for (const raw of line.text.split(/(?<=[.!?])\s+/)) {
      const text = raw.trim();
      if (text.split(/\s+/).length >= 3) out.push({ text, speaker: line.speaker, index: out.length, score: 0 });
    }
  }
  return out;
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}']+/gu)?.filter((w) => !STOPWORDS.has(w) && w.length > 2) ?? [];

function capitalise(s: string) {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

export function extractiveSummary(input: SummaryInput): SummaryResult {
  const sentences = sentencesOf(input);
  const freq = new Map<string, number>();
  for (const s of sentences) for (const w of words(s.text)) freq.set(w, (freq.get(w) ?? 0) + 1);
  for (const s of sentences) {
    const ws = words(s.text);
    s.score = ws.reduce((sum, w) => sum + (freq.get(w) ?? 0), 0) / Math.sqrt(ws.length || 1);
  }
  const count = Math.min(5, Math.max(1, Math.ceil(sentences.length / 6)));
  const top = [...sentences].sort((a, b) => b.score - a.score).slice(0, count).sort((a, b) => a.index - b.index);
  const decisions = sentences.filter((s) => DECISION.test(s.text));
  const actions = sentences.filter((s) => ACTION.test(s.text) && !DECISION.test(s.text));

  const summary = top.length ? top.map((s) => capitalise(s.text)).join(" ") : "The recording holds no recognisable speech.";
  const parts: string[] = [];
  if (input.userWrittenNote.trim()) parts.push("## Your notes", "", input.userWrittenNote.trim(), "");
  parts.push("## Key points", "", ...(top.length ? top.map((s) => `- ${capitalise(s.text)}`) : ["- (none found)"]), "");
  if (decisions.length) parts.push("## Decisions", "", ...decisions.map((s) => `- ${capitalise(s.text)}`), "");
  if (actions.length) parts.push("## Action items", "", ...actions.map((s) => `- [ ] ${capitalise(s.text)} (owner: ${s.speaker})`), "");
  parts.push("_Summarized locally by extraction (no language model configured)._");
  return { summary, enhancedNote: parts.join("\n") };
}

export function createExtractiveSummarizer(): Summarizer {
  return {
    name: "extractive",
    async summarize(input) {
      return extractiveSummary(input);
    },
  };
}
