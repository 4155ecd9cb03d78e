// Correcting a note's transcript, line by line (extension): declared once here for REST,
// the web app and the CLI.
import { z } from "zod";
import { TranscriptSegment } from "./notes.js";

/** The longest line a correction may write. */
export const MAX_LINE_CHARS = 10_000;

/** A line as it is read and corrected: the transcript's segment, with its id and version. */
export const TranscriptLine = TranscriptSegment;
export type TranscriptLineDto = z.infer<typeof TranscriptLine>;

export const TranscriptLineParams = z.object({
  id: z.string().min(1).max(200),
  segmentId: z.string().min(1).max(200),
});

const Version = z.number().int().min(0).meta({ description: "The line's version as read: a stale one is 409." });

export const TranscriptLineUpdateBody = z
  .object({
    version: Version,
    text: z
      .string()
      .max(MAX_LINE_CHARS)
      .refine((t) => t.trim().length > 0, "cannot be empty: a line is deleted with DELETE")
      .optional(),
    speaker: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Who said it: a speaker's name or label as the transcript shows it, or a new name." }),
    fromHereOn: z.boolean().optional().meta({
      description: "With speaker: the following lines given to the same speaker as this one are given over too.",
    }),
  })
  .strict()
  .meta({ id: "TranscriptLineUpdate" });

export const TranscriptLineSplitBody = z
  .object({
    version: Version,
    atWord: z
      .number()
      .int()
      .min(1)
      .meta({ description: "Split after this many words: the rest becomes a new line, the time shared by words." }),
  })
  .strict()
  .meta({ id: "TranscriptLineSplit" });

export const TranscriptLineDeleteQuery = z.object({
  version: z
    .string()
    .regex(/^\d{1,9}$/, "must be the line's version as read, a whole number")
    .transform(Number)
    .meta({ description: "The line's version as read: a stale one is 409." }),
});

export const TranscriptLines = z
  .object({
    lines: z.array(TranscriptLine).meta({ description: "The lines the correction changed or made." }),
    vocabularyOffered: z.array(z.string()).optional().meta({
      description:
        "Names and terms the correction wrote that the workspace's vocabulary lacks: offered for it (GET /v1/ai-config, transcription.vocabularyOffered), for an admin to take.",
    }),
  })
  .meta({ id: "TranscriptLines" });
