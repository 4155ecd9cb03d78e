// A meeting's title from what was said, for a note made without one ("Launch date and
// cloud costs", not "design-review" or "Recording 14:02"): the one or two topics the
// meeting kept coming back to. A topic is a run of content words said again and again
// (a name of a thing: "launch date", "cloud costs"); a phrase said in more than one
// sentence outranks a single word, and the greetings, agenda talk and questions are
// not read. Without a language model this is the title; a model's summary may name it
// better (chat-summarizer.ts), and falls back to this.
import { actOf, sentencesOf } from "./meeting-acts.js";

/** Words that name no topic: function words, fillers, and the verbs and qualities a phrase must not start or end with. */
const NOT_TOPIC = new Set(
  (
    "a about above after again against all also am an and any anyone anything are around as at away back be because been before being below between both but by can cannot could did do does doing done down during each else enough even ever every everyone everything few for from further get gets getting go goes going gone good got great had has have having he her here hers him his how i if in into is it its itself just keep know last let lets like little look looking lot lots made make many may maybe me might more most much must my need needs new next no nor not now of off ok okay on once one only or other our ours out over own per perhaps please pretty quite rather really right said same say says see seem seems she should since so some something still such sure take talk than thank thanks that the their them then there these they thing things think this those though through to today together tomorrow too under until up upon us use used very want wants was way we week well were what when where whether which while who whom why will with within without would yeah yes yet you your yours um uh hmm mhm oh ah hey hi hello bye everybody guys folks " +
    "first second third start started let's we'll i'll you'll it's that's there's i'm we're they're don't doesn't didn't can't won't isn't aren't go ahead agree agreed decide decided done fine point question idea part bit kind sort probably actually basically just already almost soon later able"
  ).split(" "),
);
/** Sentences that steer or greet say what the meeting is about in words ("today we look at…") but also "welcome", "agenda": the latter never a topic. */
const MEETING_WORDS = new Set(
  "meeting meetings agenda call sync standup stand-up item items minutes everyone team welcome afternoon morning evening discussion update updates".split(
    " ",
  ),
);
const MAX_TITLE = 80;

interface Said {
  text: string;
  speaker: string;
}

/** The meeting's title from its lines, or null when nothing in them names a topic. */
export function titleOf(lines: readonly Said[], people: readonly string[] = []): string | null {
  const names = new Set(people.flatMap((n) => n.toLowerCase().split(/\s+/)).filter(Boolean));
  const ctx = { names: people, meetingAt: 0 };
  // phrase (lower case) → in how many sentences, how it was written, where first said
  const seen = new Map<string, { sentences: number; first: number; words: number }>();
  // Words written in capitals inside a sentence: names of things ("March", "OpenShift"), kept so.
  const capitals = new Set<string>();
  let order = 0;
  for (const line of lines) {
    for (const sentence of sentencesOf(line.text, people)) {
      const act = actOf(sentence, { ...ctx, speaker: line.speaker });
      if (act === "courtesy" || act === "question" || act === "acknowledgement") continue;
      const inThis = new Set<string>();
      for (const run of runsOf(sentence, names, capitals))
        for (let n = 1; n <= 3; n++)
          for (let i = 0; i + n <= run.length; i++) {
            const words = run.slice(i, i + n);
            const key = words.map((w) => w.toLowerCase()).join(" ");
            if (inThis.has(key)) continue;
            inThis.add(key);
            const had = seen.get(key);
            if (had) had.sentences++;
            else seen.set(key, { sentences: 1, first: order++, words: n });
          }
    }
  }
  // A phrase said in two sentences or more names a topic; a single word needs three.
  const ranked = [...seen.entries()]
    .filter(([, s]) => (s.words > 1 ? s.sentences >= 2 : s.sentences >= 3))
    .map(([key, s]) => ({ key, ...s, score: s.sentences * s.words }))
    .sort((a, b) => b.score - a.score || b.words - a.words || a.first - b.first);
  const picked: typeof ranked = [];
  for (const candidate of ranked) {
    const words = new Set(candidate.key.split(" "));
    // One topic per thing: "cloud" adds nothing beside "cloud costs".
    if (picked.some((p) => p.key.split(" ").some((w) => words.has(w)))) continue;
    picked.push(candidate);
    if (picked.length === 2) break;
  }
  if (!picked.length) return null;
  // In the order the meeting came to them.
  picked.sort((a, b) => a.first - b.first);
  const surface = (key: string) =>
    key
      .split(" ")
      .map((w) => [...capitals].find((c) => c.toLowerCase() === w) ?? w)
      .join(" ");
  const title = picked.map((p) => surface(p.key)).join(" and ");
  return (title.charAt(0).toUpperCase() + title.slice(1)).slice(0, MAX_TITLE);
}

/** The runs of topic words in a sentence, split wherever a word names no topic. */
function runsOf(sentence: string, names: ReadonlySet<string>, capitals: Set<string>): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  const end = () => {
    if (run.length) runs.push(run);
    run = [];
  };
  for (const [i, token] of sentence.split(/\s+/).entries()) {
    const word = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    const lower = word.toLowerCase();
    const topical =
      word.length > 2 &&
      /\p{L}/u.test(word) &&
      !NOT_TOPIC.has(lower) &&
      !MEETING_WORDS.has(lower) &&
      !names.has(lower) &&
      !/(ly|ed)$/.test(lower);
    if (!topical) {
      end();
      continue;
    }
    run.push(word);
    if (i > 0 && /^\p{Lu}/u.test(word)) capitals.add(word);
    // Punctuation after a word ends its phrase: "costs, and the roadmap".
    if (/[,;:.!?)]$/.test(token)) end();
  }
  end();
  return runs;
}
