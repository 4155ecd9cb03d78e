// notula folders list
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { printTable, shortDate } from "../../lib/output.js";

export const define = (folders: Command) => folders.command("list").description("List folders");

export const run = (_input: object, { api }: Deps) => api.call("listFolders");

export function render(r: ApiResponse<"listFolders">) {
  printTable(
    ["ID", "NAME", "PARENT", "MEMBERS", "ACCESS", "TEMPLATE", "CREATED"],
    r.folders.map((f) => [
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
