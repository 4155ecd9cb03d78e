// The note list's filters, shared by `notes list` and `notes export`: as flags, as
// GET /v1/notes takes them, and walked page by page.
import type { Command } from "commander";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { NOTE_KINDS, NOTE_SORT_FIELDS, NOTE_STATUSES } from "../../../shared/vocabulary.js";
import type { ApiRequest, ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { collect } from "../../lib/context.js";
import { NoteListQuery } from "../../../shared/schemas/notes.js";
import { checkFlags } from "../../lib/check-flags.js";
import { offer } from "../../lib/command-tree.js";

export interface ListFlags {
  limit?: string;
  offset?: string;
  sort?: string;
  order?: string;
  status?: string;
  kind?: string;
  search?: string;
  createdBy?: string;
  from?: string;
  to?: string;
  folder?: string[];
  participant?: string;
}

type ListQuery = NonNullable<ApiRequest<"listNotes">["query"]>;

/** Each query field of GET /v1/notes as the flag that sets it. */
const FLAG_OF: Record<string, string> = {
  limit: "--limit",
  offset: "--offset",
  sortBy: "--sort",
  sortOrder: "--order",
  status: "--status",
  kind: "--kind",
  search: "--search",
  createdBy: "--created-by",
  fromDate: "--from",
  toDate: "--to",
  folderIds: "--folder",
  participantEmail: "--participant",
};

/**
 * The list filters as GET /v1/notes takes them, checked against the same schema the
 * server checks them with before anything connects: a bad value is exit 2, naming its flag.
 */
export function listQuery(f: ListFlags, overrides: { limit?: string; offset?: string } = {}): ListQuery {
  const query = unchecked(f, overrides);
  checkFlags(NoteListQuery, { ...query, folderIds: [query.folderIds ?? []].flat().join(",") || undefined }, FLAG_OF);
  return query;
}

function unchecked(f: ListFlags, overrides: { limit?: string; offset?: string }): ListQuery {
  return {
    limit: overrides.limit ?? f.limit,
    offset: overrides.offset ?? f.offset,
    sortBy: f.sort as ListQuery["sortBy"],
    sortOrder: f.order as ListQuery["sortOrder"],
    status: f.status as NoteDto["status"] | undefined,
    kind: f.kind as NoteDto["kind"] | undefined,
    search: f.search,
    createdBy: f.createdBy,
    fromDate: f.from,
    toDate: f.to,
    folderIds: f.folder?.length ? f.folder : undefined,
    participantEmail: f.participant,
  };
}

/** Every note the filters match, page by page (100 at a time). */
export async function* walk({ api }: Pick<Deps, "api">, f: ListFlags) {
  let offset: number | null = Number(f.offset ?? 0);
  while (offset !== null) {
    const page: ApiResponse<"listNotes"> = await api.call("listNotes", {
      query: listQuery(f, { limit: "100", offset: String(offset) }),
    });
    yield page.items;
    offset = page.pagination.nextOffset;
  }
}

export function listOptions(cmd: Command) {
  cmd
    .option("--limit <n>", "notes per page, 1–100 (default 20)")
    .option("--offset <n>", "notes to skip")
    .option("--sort <field>", NOTE_SORT_FIELDS.join(" | "))
    .option("--order <direction>", "asc | desc")
    .option("--status <status>", NOTE_STATUSES.join(" | "))
    .option("--kind <kind>", NOTE_KINDS.join(" | "))
    .option(
      "--search <text>",
      "words of the title only (the interface's list filter); to find what was said, use `notula notes search`",
    )
    .option("--created-by <userId>", "creator's user id")
    .option("--from <date>", "created at or after (ISO 8601)")
    .option("--to <date>", "created before (ISO 8601)")
    .option("--folder <id>", "in this folder (repeat, or comma-separate, for any of several)", collect)
    .option("--participant <email>", "with this participant");
  offer(cmd, "--sort", NOTE_SORT_FIELDS);
  offer(cmd, "--order", ["asc", "desc"]);
  offer(cmd, "--status", NOTE_STATUSES);
  return offer(cmd, "--kind", NOTE_KINDS);
}
