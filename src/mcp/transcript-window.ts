// A part of a long transcript for an agent: a time or segment window, cut to a size
// budget, with a cursor to continue from. A four-hour meeting never floods a client.
import { z } from "zod";
import { BadRequestError } from "../core/errors.js";
import { fromTimestamp } from "../core/transcript-time.js";
import type { NoteDto } from "../shared/schemas/notes.js";

const Timestamp = z.string().regex(/^\d{1,4}:[0-5]\d$/, "must be MM:SS, such as 07:30 or 125:00");

export const DEFAULT_TRANSCRIPT_BUDGET = 40_000;

export const TranscriptWindowInput = {
  fromTimestamp: Timestamp.optional().describe("Transcript from this time (MM:SS), inclusive"),
  toTimestamp: Timestamp.optional().describe("Transcript up to this time (MM:SS), exclusive"),
  fromSegment: z.number().int().min(0).optional().describe("Transcript from this segment position, inclusive"),
  toSegment: z.number().int().min(0).optional().describe("Transcript up to this segment position, inclusive"),
  maxChars: z
    .number()
    .int()
    .min(1000)
    .max(500_000)
    .optional()
    .describe(
      `At most this many characters of transcript, as JSON (default ${DEFAULT_TRANSCRIPT_BUDGET}); the rest comes with transcriptWindow.nextCursor`,
    ),
  cursor: z.string().max(200).optional().describe("transcriptWindow.nextCursor of the previous call, to read on"),
};

export const TranscriptWindow = z.object({
  fromSegment: z.number().int().nullable().describe("position of the first segment returned (null when none)"),
  toSegment: z.number().int().nullable().describe("position of the last segment returned"),
  totalSegments: z.number().int(),
  nextCursor: z.string().nullable().describe("pass as cursor to read the rest of the window; null when it is all here"),
});

type WindowArgs = { [K in keyof typeof TranscriptWindowInput]?: z.infer<(typeof TranscriptWindowInput)[K]> };

export function windowTranscript(
  note: NoteDto,
  args: WindowArgs,
): { transcripts: NoteDto["transcripts"]; window: z.infer<typeof TranscriptWindow> } {
  const all = note.transcripts;
  let start = args.fromSegment ?? 0;
  if (args.cursor) {
    let parsed: { n?: unknown; s?: unknown } = {};
    try {
      parsed = JSON.parse(Buffer.from(args.cursor, "base64url").toString("utf8"));
    } catch {
      // Reported below.
    }
    if (parsed.n !== note.id || typeof parsed.s !== "number" || !Number.isInteger(parsed.s) || parsed.s < 0)
      throw new BadRequestError("cursor: not a cursor of this note's transcript; call again without it.");
    start = Math.max(start, parsed.s);
  }
  const fromSec = args.fromTimestamp ? fromTimestamp(args.fromTimestamp) : null;
  const toSec = args.toTimestamp ? fromTimestamp(args.toTimestamp) : null;
  const end = args.toSegment ?? Infinity;
  const budget = args.maxChars ?? DEFAULT_TRANSCRIPT_BUDGET;
  const out: NoteDto["transcripts"] = [];
  let used = 0;
  let first: number | null = null;
  let last: number | null = null;
  let next: number | null = null;
  for (let i = start; i < all.length && i <= end; i++) {
    const s = all[i];
    const at = fromTimestamp(s.startTimestamp);
    if (fromSec !== null && at < fromSec) continue;
    if (toSec !== null && at >= toSec) break;
    // Counted as the segment's JSON, the larger of the two forms a client receives.
    const size = JSON.stringify(s).length + 1;
    if (out.length && used + size > budget) {
      next = i;
      break;
    }
    out.push(s);
    used += size;
    first ??= i;
    last = i;
  }
  return {
    transcripts: out,
    window: {
      fromSegment: first,
      toSegment: last,
      totalSegments: all.length,
      nextCursor: next === null ? null : Buffer.from(JSON.stringify({ n: note.id, s: next })).toString("base64url"),
    },
  };
}
