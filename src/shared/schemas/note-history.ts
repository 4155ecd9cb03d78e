// A note's history (extension): its versions, newest first, and restoring one. Declared
// once here for REST, the web app and the CLI.
import { z } from "zod";
import { MAX_OFFSET, Pagination, queryInt } from "./common.js";

/** The parts of a note whose text a version holds whole. */
export const TEXT_PARTS = ["title", "userWrittenNote", "summary", "enhancedNote"] as const;
export type TextPart = (typeof TEXT_PARTS)[number];

const Said = z.object({ speaker: z.string(), text: z.string() });

export const NoteVersion = z
  .object({
    id: z.string(),
    part: z.enum([...TEXT_PARTS, "transcriptLine"]),
    writtenBy: z.string().meta({ description: 'The person\'s name, or what wrote it ("extractive", "local:…").' }),
    byPerson: z.boolean(),
    userId: z.string().nullable(),
    at: z.string().meta({ description: "When it was written (its last save, for a person's saves minutes apart)." }),
    content: z.string().nullable().meta({ description: "The part as written; null for a line's correction." }),
    line: z
      .object({
        lineId: z.string(),
        startSec: z.number(),
        change: z
          .enum(["edit", "delete", "split", "restore"])
          .meta({ description: "restore: a deleted line put back, or a split line joined again." }),
        before: Said,
        after: Said.nullable(),
      })
      .nullable(),
    restorable: z
      .boolean()
      .meta({ description: "Whether POST …/restore takes it: every text part, and a line's edit, deletion or split." }),
  })
  .meta({ id: "NoteVersion" });
export type NoteVersionDto = z.infer<typeof NoteVersion>;

export const NoteHistoryQuery = z.object({ limit: queryInt(1, 100, 20), offset: queryInt(0, MAX_OFFSET, 0) });
export const NoteHistoryList = z
  .object({ items: z.array(NoteVersion), pagination: Pagination })
  .meta({ id: "NoteHistory" });
export const NoteVersionParams = z.object({ id: z.string().min(1).max(200), versionId: z.string().min(1).max(200) });
