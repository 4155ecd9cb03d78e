// notula notes search <query>
import type { Command } from "commander";
import { checkFlags } from "../../lib/check-flags.js";
import { SearchQueryParams } from "../../../shared/schemas/search.js";
import { listOf } from "../../lib/json-output.js";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { collect } from "../../lib/context.js";
import { highlighted, info, printTable, truncate } from "../../lib/output.js";

export const define = (notes: Command) =>
  notes
    .command("search")
    .description("Find what was written or said: each match with the note, when it was said and by whom")
    .argument("<query>", 'words (each found by prefix) and "quoted phrases"')
    .option("--mode <mode>", "hybrid (words and meaning) | fulltext | semantic", "hybrid")
    .option("--folder <id>", "in this folder (repeat for any of several)", collect)
    .option("--from <date>", "created at or after (ISO 8601)")
    .option("--to <date>", "created before (ISO 8601)")
    .option("--participant <email>", "with this participant")
    .option("--speaker <name>", "only what this speaker said")
    .option("--limit <n>", "notes per page, 1–50 (default 10)")
    .option("--cursor <cursor>", "the next page (printed after a full page)")
    .addHelpText(
      "after",
      '\nExamples:\n  notula notes search "next quarter" budget\n  notula notes search pricing --speaker Ana --from 2026-01-01 --json',
    );

export interface Input {
  query: string;
  mode: "hybrid" | "fulltext" | "semantic";
  folder?: string[];
  from?: string;
  to?: string;
  participant?: string;
  speaker?: string;
  limit?: string;
  cursor?: string;
}

/** Each query field of GET /v1/search as the flag that sets it. */
const FLAG_OF: Record<string, string> = {
  q: "the query",
  mode: "--mode",
  folderIds: "--folder",
  fromDate: "--from",
  toDate: "--to",
  participantEmail: "--participant",
  speaker: "--speaker",
  limit: "--limit",
  cursor: "--cursor",
};

/** The query GET /v1/search gets: each flag under its field. */
const queryOf = (f: Input) => ({
  q: f.query,
  mode: f.mode,
  folderIds: f.folder?.length ? f.folder.join(",") : undefined,
  fromDate: f.from,
  toDate: f.to,
  participantEmail: f.participant,
  speaker: f.speaker,
  limit: f.limit,
  cursor: f.cursor,
});

export const validate = (f: Input) => checkFlags(SearchQueryParams, queryOf(f), FLAG_OF);

export const run = async (f: Input, { api }: Deps) =>
  listOf("results", await api.call("search", { query: queryOf(f) }));

/** How each note was found, as the FOUND column says it (notes related only by meaning come last). */
const FOUND: Record<ApiResponse<"search">["results"][number]["foundBy"], string> = {
  phrase: "phrase",
  words: "words",
  "some-words": "some words",
  meaning: "meaning",
};

export function render(r: Awaited<ReturnType<typeof run>>, f: Input) {
  if (!r.items.length) {
    info(`No note mentions "${f.query}", and none is related by meaning.${r.suggestion ? ` ${r.suggestion}` : ""}`);
    return;
  }
  printTable(
    ["NOTE", "FOUND", "AT", "SPEAKER", "TITLE", "MATCH"],
    r.items.flatMap((h) =>
      (h.matches.length ? h.matches : [null]).map((m) => [
        h.note.id,
        FOUND[h.foundBy],
        m?.startTimestamp ?? "",
        m?.speaker ?? "",
        truncate(h.note.title, 32),
        highlighted(truncate(m?.text ?? "", 80)),
      ]),
    ),
  );
  if (r.pagination.nextCursor) info(`More: --cursor ${r.pagination.nextCursor}`);
}
