// notula actions list
import type { Command } from "commander";
import { checkFlags } from "../../lib/check-flags.js";
import { ActionItemListQuery } from "../../../shared/schemas/action-items.js";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { pageOptions, printTable, truncate, type PageFlags } from "../../lib/output.js";

export const define = (actions: Command) =>
  examples(
    pageOptions(
      actions
        .command("list")
        .description("List action items, the soonest due first")
        .option("--mine", "only those given to you")
        .option("--open", "only those not done")
        .option("--done", "only those done")
        .option("--note <id>", "only this note's")
        .option("--due-before <date>", "only those due before this day (YYYY-MM-DD)"),
    ),
    "notula actions list --mine --open",
    "notula actions list --note note_… --json id,text,done",
  );

export interface Input extends PageFlags {
  mine?: boolean;
  open?: boolean;
  done?: boolean;
  note?: string;
  dueBefore?: string;
}

const queryOf = (f: Input) => ({
  assignee: f.mine ? "me" : undefined,
  status: f.open && !f.done ? ("open" as const) : f.done && !f.open ? ("done" as const) : ("all" as const),
  noteId: f.note,
  dueBefore: f.dueBefore,
  limit: f.limit,
  offset: f.offset,
});

export const validate = (f: Input) =>
  checkFlags(ActionItemListQuery, queryOf(f), {
    limit: "--limit",
    offset: "--offset",
    noteId: "--note",
    dueBefore: "--due-before",
    assignee: "--mine",
    status: "--open",
  });

export const run = (f: Input, { api }: Deps) => api.call("listActionItems", { query: queryOf(f) });

export const render = (r: ApiResponse<"listActionItems">) =>
  printTable(
    ["ID", "", "TASK", "OWNER", "DUE", "NOTE"],
    r.items.map((i) => [
      i.id,
      i.done ? "done" : "open",
      truncate(i.text, 56),
      i.owner?.name ?? "",
      i.due ?? "",
      truncate(i.noteTitle, 28),
    ]),
  );
