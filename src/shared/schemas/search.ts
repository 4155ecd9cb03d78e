// The search shapes shared by the MCP tools (input and output schemas) and the services.
import { z } from "zod";
import { Iso, queryDate, queryIdList, queryInt } from "./common.js";

export const NoteSearchQuery = z.object({
  query: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10).describe("1–50, default 10"),
});
export type NoteSearchQueryInput = z.infer<typeof NoteSearchQuery>;

export const NoteSearchResult = z.object({
  notes: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      createdAt: Iso,
      snippet: z.string(),
      score: z.number(),
      timestamp: z.string().optional().describe("MM:SS where the best match was said, when it was in the transcript"),
      url: z
        .string()
        .optional()
        .describe("The note's address, at the moment of the best match (#t=SECONDS) when it has one"),
      speaker: z.string().optional().describe("who said it"),
    }),
  ),
  query: z.string(),
  count: z.number().int(),
});

export const KnowledgeSearchQuery = z.object({
  query: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10).describe("1–50, default 10"),
  folderIds: queryIdList("Only notes filed in any of these folders (articles belong to none)."),
  fromDate: queryDate("Only notes created at or after this ISO 8601 date."),
  toDate: queryDate("Only notes created before this ISO 8601 date."),
});
export type KnowledgeSearchQueryInput = z.infer<typeof KnowledgeSearchQuery>;

export const KnowledgeSearchResult = z.object({
  results: z.array(
    z.object({
      source: z.enum(["note", "article"]),
      id: z.string(),
      title: z.string(),
      snippet: z.string(),
      score: z.number(),
      timestamp: z.string().optional(),
      url: z.string().optional(),
      speaker: z.string().optional(),
    }),
  ),
  mode: z.string(),
  note: z.string().optional(),
});

// --- GET /v1/search ---------------------------------------------------------------

export const SEARCH_MODES = ["hybrid", "fulltext", "semantic"] as const;

export const SearchQueryParams = z.object({
  q: z.string().trim().min(1, "is required").max(500).meta({
    description:
      'Words (each found by prefix) and "quoted phrases" (found as written); notes with every term rank above notes with some.',
  }),
  mode: z
    .enum(SEARCH_MODES)
    .default("hybrid")
    .meta({ description: "hybrid (words and meaning, fused), fulltext or semantic" }),
  folderIds: queryIdList("Comma-separated folder IDs: notes filed in any of them."),
  fromDate: queryDate("Notes created at or after this ISO 8601 date."),
  toDate: queryDate("Notes created before this ISO 8601 date."),
  participantEmail: z.string().trim().max(320).optional(),
  speaker: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only what this speaker said (a label or a name given to one)." }),
  limit: queryInt(1, 50, 10),
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "pagination.nextCursor of the previous page, with the same query." }),
});
/** What the one search takes, from REST, the CLI, the web app or MCP. */
export interface SearchParams {
  q: string;
  mode: (typeof SEARCH_MODES)[number];
  limit: number;
  folderIds?: string[];
  fromDate?: number;
  toDate?: number;
  participantEmail?: string;
  speaker?: string;
  cursor?: string;
}

/** How a note was found, from the closest match to the loosest (services/search-tiers.ts ranks them). */
export const FOUND_BY = ["phrase", "words", "some-words", "meaning"] as const;

export const SearchMatch = z
  .object({
    text: z.string().meta({ description: "The matching passage, the matched words in «»." }),
    segment: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The transcript segment's position; null when the match is in the title or notes." }),
    startTimestamp: z.string().nullable().meta({ description: "MM:SS where it was said." }),
    speaker: z.string().nullable(),
  })
  .meta({ id: "SearchMatch" });
export type SearchMatch = z.infer<typeof SearchMatch>;

export const SearchResponse = z
  .object({
    results: z.array(
      z.object({
        note: z.object({ id: z.string(), title: z.string(), createdAt: Iso }),
        foundBy: z.enum(FOUND_BY).meta({
          description:
            "How the note was found, and the order results come in: the query's words as one phrase, every word, some of them, or only by meaning (related, with none of the words; above the model's similarity floor).",
        }),
        score: z
          .number()
          .meta({ description: "Reciprocal-rank fusion score: higher is better; compare within one search only." }),
        matches: z.array(SearchMatch).meta({ description: "The note's best matches, best first (at most 3)." }),
      }),
    ),
    mode: z
      .enum(SEARCH_MODES)
      .meta({ description: "The mode used: hybrid falls back to fulltext without an embedding model." }),
    pagination: z.object({ limit: z.number().int(), nextCursor: z.string().nullable() }),
    suggestion: z.string().nullable().meta({
      description:
        "When nothing was found and a change of the search would find something (no quotes, no filters), what to change; else null.",
    }),
  })
  .meta({ id: "SearchResponse" });
export type SearchResponse = z.infer<typeof SearchResponse>;

/** A search result with its closest passage's similarity to the query (null: not found by meaning), for callers inside the server; never sent. */
export type SearchResultWithSimilarity = SearchResponse["results"][number] & { similarity: number | null };
