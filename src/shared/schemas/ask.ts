// Asking one's meetings: POST /v1/ask and its threads, shared by REST, the CLI and the web app.
import { z } from "zod";
import { Iso, queryDate } from "./common.js";

export const ASK_LIMITS = { questionChars: 2000 } as const;

export const AskBody = z
  .object({
    question: z
      .string()
      .trim()
      .min(1, "is required")
      .max(ASK_LIMITS.questionChars, `is longer than ${ASK_LIMITS.questionChars} characters`)
      .meta({
        description:
          'What to ask, in words: "what did we decide about the Lisbon office last week?". Time words (today, yesterday, last week, this month, since 2026-03-01) become date filters.',
      }),
    noteId: z.string().min(1).max(200).optional().meta({ description: "Ask this meeting alone." }),
    folderIds: z
      .array(z.string().min(1).max(200))
      .max(50)
      .optional()
      .meta({ description: "Notes filed in any of these." }),
    fromDate: queryDate("Notes created at or after this ISO 8601 date."),
    toDate: queryDate("Notes created before this ISO 8601 date."),
    participantEmail: z.string().trim().email("must be an email address").max(320).optional(),
    threadId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "A follow-up: asked in this thread (yours), with its questions and answers before it." }),
  })
  .strict()
  .meta({ id: "AskRequest" });
export type AskInput = z.infer<typeof AskBody>;

export const AskCitation = z
  .object({
    noteId: z.string(),
    title: z.string(),
    startSec: z.number().nullable().meta({ description: "Where it was said; null when quoted from the written note." }),
    speaker: z.string().nullable(),
    quote: z.string().meta({ description: "The words cited." }),
    url: z.string().meta({ description: "Opens the note at that moment in the web app." }),
  })
  .meta({ id: "AskCitation" });
export type AskCitationDto = z.infer<typeof AskCitation>;

export const AskAnswer = z
  .object({
    answer: z.string().meta({
      description:
        "The answer, citing moments as [1], [2]… in the order of citations; or what was searched when nothing was found.",
    }),
    found: z.boolean().meta({ description: "false: nothing relevant was found, and no model was asked." }),
    citations: z.array(AskCitation),
    threadId: z.string(),
    engine: z
      .string()
      .meta({ description: 'What wrote the answer: the model, or "extractive" (quotes, not an answer).' }),
    partial: z.boolean().meta({ description: "Only part of what was found could be read." }),
    searched: z.string().meta({ description: "What was searched: the words, the meetings, the dates." }),
    error: z.string().nullable().meta({ description: "The model failed mid-answer: what streamed is kept." }),
  })
  .meta({ id: "AskAnswer" });
export type AskAnswerDto = z.infer<typeof AskAnswer>;

const Turn = z.object({
  question: z.string(),
  answer: z.string(),
  found: z.boolean(),
  citations: z.array(AskCitation),
  engine: z.string(),
  partial: z.boolean(),
  error: z.string().nullable(),
  askedAt: Iso,
});

export const AskThread = z
  .object({
    id: z.string(),
    title: z.string(),
    noteId: z.string().nullable(),
    createdAt: Iso,
    updatedAt: Iso,
    turns: z.array(Turn),
  })
  .meta({ id: "AskThread" });
export type AskThreadDto = z.infer<typeof AskThread>;

export const AskThreadSummary = AskThread.omit({ turns: true })
  .extend({ questions: z.number().int() })
  .meta({ id: "AskThreadSummary" });
export const AskThreadList = z.object({ threads: z.array(AskThreadSummary) }).meta({ id: "AskThreadList" });
export const AskThreadEnvelope = z.object({ thread: AskThread }).meta({ id: "AskThreadEnvelope" });
