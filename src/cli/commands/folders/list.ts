// notula folders list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import type { Deps } from "../../lib/command.js";
import { printTable, shortDate } from "../../lib/output.js";

export const define = (folders: Command) =>
  examples(
    folders.command("list").description("List folders"),
    "notula folders list",
    `notula folders list --json id,name --jq '.items[] | select(.name == "Customers") | .id'`,
  );

export const run = async (_input: object, { api }: Deps) => listOf("folders", await api.call("listFolders"));

export function render(r: Awaited<ReturnType<typeof run>>) {
  printTable(
    ["ID", "NAME", "PARENT", "MEMBERS", "ACCESS", "TEMPLATE", "CREATED"],
    r.items.map((f) => [
      f.id,
      f.name,
      f.parentFolderId ?? "",
      String(f.memberCount),
      f.isPrivate ? "private" : "shared",
      f.templateId ?? "",
      shortDate(f.createdAt),
    ]),
  );
}
