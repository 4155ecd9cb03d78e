// notula invites list
import type { Command } from "commander";
import { checkPage } from "../../lib/check-flags.js";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { names, pageOptions, printTable, shortDate, type PageFlags } from "../../lib/output.js";

export const define = (invites: Command) =>
  examples(
    pageOptions(
      invites
        .command("list")
        .description("List pending invites")
        .option("--legacy", "use the older /v1/workspace/invites endpoint (shows groups)"),
    ),
    "notula invites list",
    `notula invites list --json --jq '.items[].email'`,
  );

export interface Input extends PageFlags {
  legacy?: boolean;
}

export const validate = (f: Input) => checkPage(f);

export const run = (f: Input, { api }: Deps) =>
  api.call(f.legacy ? "listWorkspaceInvites" : "listInvites", { query: { limit: f.limit, offset: f.offset } });

export const render = (r: ApiResponse<"listInvites" | "listWorkspaceInvites">, f: Input, { server }: Deps) =>
  printTable(
    ["ID", "EMAIL", "ROLE", "EXPIRES", f.legacy ? "GROUPS" : "FOLDERS", "LINK"],
    r.items.map((i) => [
      i.id,
      i.email ?? "(link)",
      i.role,
      shortDate(i.expiresAt),
      names("groups" in i ? i.groups : i.folders),
      `${server}/invite/${i.code}`,
    ]),
  );
