// notula notes list
import type { Command } from "commander";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { info, printTable, shortDate, truncate } from "../../lib/output.js";
import { listOptions, listQuery, walk, type ListFlags } from "./filters.js";

export const define = (notes: Command) =>
  listOptions(notes.command("list").description("List notes (newest first)"))
    .option("--all", "walk every page")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes list --search budget --from 2026-01-01\n  notula notes list --all --json | jq '.items | length'",
    );

export interface Input extends ListFlags {
  all?: boolean;
}

/** One page, or with --all every note as one page. */
export async function run(f: Input, deps: Deps): Promise<ApiResponse<"listNotes">> {
  if (!f.all) return deps.api.call("listNotes", { query: listQuery(f) });
  const items: NoteDto[] = [];
  for await (const page of walk(deps, f)) items.push(...page);
  return { items, pagination: { limit: 100, nextOffset: null, isLast: true } };
}

export function render(page: ApiResponse<"listNotes">, f: Input) {
  printTable(
    ["ID", "TITLE", "STATUS", "CREATED", "FOLDERS"],
    page.items.map((n) => [
      n.id,
      truncate(n.title, 48),
      n.status,
      shortDate(n.createdAt),
      n.tags.map((t) => t.name).join(", "),
    ]),
  );
  if (!f.all && !page.pagination.isLast) info(`More notes follow: --offset ${page.pagination.nextOffset}, or --all.`);
}
