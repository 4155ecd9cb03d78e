// The search shapes shared by the MCP tools (input and output schemas) and the services.
import { z } from "zod";
import { Iso, queryDate, queryIdList } from "./common.js";

export const NoteSearchQuery = z.object({
  query: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10).describe("1–50, default 10"),
});
export type NoteSearchQueryInput = z.infer<typeof NoteSearchQuery>;

export const NoteSearchResult = z.object({
  notes: z.array(z.object({ id: z.string(), title: z.string(), createdAt: Iso, snippet: z.string(), score: z.number() })),
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
    z.object({ source: z.enum(["note", "article"]), id: z.string(), title: z.string(), snippet: z.string(), score: z.number(), timestamp: z.string().optional() }),
  ),
  mode: z.string(),
  note: z.string().optional(),
});
