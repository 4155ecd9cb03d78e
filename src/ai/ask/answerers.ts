// What writes an answer from the moments search found: a language model (streamed), or
// with none, the moments themselves quoted in order (labelled as quotes, not an answer).
// Either way only the numbered moments are used, and cited by their numbers.
import { toTimestamp } from "../../core/transcript-time.js";
import type { ChatCallOptions, ChatMessage, ChatModel } from "../llm/chat.js";

export interface Moment {
  /** Its number in the answer: [1], [2]… */
  n: number;
  noteId: string;
  title: string;
  createdAt: number;
  startSec: number | null;
  speaker: string | null;
  /** The words cited. */
  quote: string;
  /** The lines around it, for the model to read. */
  context: string;
}

export interface AskContext {
  question: string;
  moments: Moment[];
  /** The thread's questions and answers before this one. */
  history: { question: string; answer: string }[];
}

export interface Answerer {
  name: string;
  /** Writes the answer through `emit`; says whether only part of the moments could be read. */
  answer(
    ctx: AskContext,
    emit: (text: string) => void,
    signal: AbortSignal,
    opts?: ChatCallOptions,
  ): Promise<{ partial: boolean }>;
}

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** Where a moment is, as people say it: "Ana at 0:22 in Pricing review, 27 Nov 2026". */
export const where = (m: Pick<Moment, "title" | "createdAt" | "startSec" | "speaker">) =>
  `${m.speaker ? `${m.speaker} ` : ""}${m.startSec !== null ? `at ${clockOf(m.startSec)} ` : ""}in ${m.title}, ${DAY.format(new Date(m.createdAt))}`;

/** A point in a recording, as a player shows it: 0:22, 1:04:09. */
const clockOf = (sec: number) => toTimestamp(sec).replace(/^0(\d:)/, "$1");

export const EXTRACTIVE_LEAD =
  "Quotes from your meetings (no language model is set up, so these are the moments found, not a written answer):";

/** The moments found, quoted in the order found: what a person would read to answer it themselves. */
export function createExtractiveAnswerer(): Answerer {
  return {
    name: "extractive",
    async answer(ctx, emit) {
      emit(`${EXTRACTIVE_LEAD}\n\n`);
      for (const m of ctx.moments) emit(`[${m.n}] ${where(m)}: "${m.quote}"\n`);
      return { partial: false };
    },
  };
}

const SYSTEM =
  "You answer questions about the user's meetings using only the numbered moments below, taken from their transcripts and notes. " +
  "Cite every statement with the numbers of the moments it comes from, like [1] or [2][3]. " +
  "If the moments do not answer the question, say that they do not, and say what they do contain. " +
  "Never use knowledge from outside the moments. Be brief: a few sentences or a short list. Use the speakers' names.";

const PART_SYSTEM =
  "You read numbered moments from meeting transcripts. Write terse notes (at most 150 words) of what in them bears on the question, " +
  "keeping each note's moment numbers in brackets, like [4]. Write nothing else; if nothing bears on it, write NOTHING.";

const momentText = (m: Moment) => `[${m.n}] ${where(m)}:\n${m.context}`;

/**
 * A language model's answer. The moments go to it whole when they fit half its
 * context; otherwise they are read in parts first (each part's notes keep the moment
 * numbers), and the answer is written from the notes. What does not fit even then is
 * left out, and the answer says so (partial).
 */
export function createLlmAnswerer(client: ChatModel): Answerer {
  return {
    name: client.name,
    async answer(ctx, emit, signal, opts) {
      const history: ChatMessage[] = ctx.history.flatMap((h) => [
        { role: "user" as const, content: h.question },
        { role: "assistant" as const, content: h.answer },
      ]);
      let material = ctx.moments.map(momentText).join("\n\n");
      const budget = Math.floor(((await client.contextTokens()) / 2) * (await client.charsPerToken(material)));
      let partial = false;
      if (material.length > budget) {
        const parts: string[][] = [[]];
        let size = 0;
        for (const m of ctx.moments.map(momentText)) {
          if (size + m.length > budget && parts[parts.length - 1].length) {
            parts.push([]);
            size = 0;
          }
          parts[parts.length - 1].push(m.slice(0, budget));
          size += m.length;
        }
        const notes: string[] = [];
        for (const part of parts) {
          const r = await client.once(
            [
              { role: "system", content: PART_SYSTEM },
              { role: "user", content: `Question: ${ctx.question}\n\nMoments:\n\n${part.join("\n\n")}` },
            ],
            signal,
            opts,
          );
          if (!/^NOTHING\b/.test(r.content)) notes.push(r.content);
        }
        material = `Notes of the moments, read in ${parts.length} parts:\n\n${notes.join("\n\n") || "(nothing bears on the question)"}`;
        if (material.length > budget) {
          material = material.slice(0, budget);
          partial = true;
        }
      }
      await client.stream(
        [
          { role: "system", content: SYSTEM },
          ...history,
          { role: "user", content: `Moments:\n\n${material}\n\nQuestion: ${ctx.question}` },
        ],
        emit,
        signal,
        opts,
      );
      return { partial };
    },
  };
}
