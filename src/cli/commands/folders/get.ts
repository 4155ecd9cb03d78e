// notula folders get <id>
import type { Command } from "commander";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { examples } from "../../lib/help.js";
import { names, shortDate } from "../../lib/output.js";

export const define = (folders: Command) =>
  examples(
    folders.command("get").description("Show a folder and who is in it").argument("<id>", "folder id"),
    "notula folders get fld_…",
    "notula folders get fld_… --json --jq '.members[].email'",
  );

/** The folder, with its members (who sees it while it is private). */
export async function run(f: { id: string }, { api }: Deps) {
  const { folder } = await api.call("getFolder", { params: { id: f.id } });
  const { members } = await api.call("listFolderMembers", { params: { id: f.id } });
  return { ...folder, members };
}

export const render = (f: ApiResponse<"getFolder">["folder"] & ApiResponse<"listFolderMembers">) =>
  process.stdout.write(
    `${f.name} (${f.id})\n` +
      `access    ${f.isPrivate ? "private: its members alone" : "shared: the whole workspace"}\n` +
      `parent    ${f.parentFolderId ?? "-"}\n` +
      `template  ${f.templateId ?? "-"}\n` +
      `created   ${shortDate(f.createdAt)}\n` +
      `members   ${names(f.members) || "-"}\n`,
  );
