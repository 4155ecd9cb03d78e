// notula folders update <id>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import type { ApiRequest, Folder } from "../../lib/api-types.js";
import { info } from "../../lib/output.js";

export const define = (folders: Command) =>
  folders
    .command("update")
    .description("Rename, move or share a folder, or set its template")
    .argument("<id>", "folder id")
    .option("--name <name>", "new name")
    .option("--parent <folderId>", "new parent folder")
    .option("--root", "move it to the top level")
    .option("--icon <icon>", "icon")
    .option("--color <hex>", "colour")
    .option("--private", "visible to its members only")
    .option("--shared", "visible to the whole workspace")
    .option("--template <id>", "the template notes filed here are enhanced with (none: the workspace default)")
    .addHelpText(
      "after",
      "\nExamples:\n  notula folders update fld_… --private\n  notula folders update fld_… --template tpl_builtin_stand-up",
    );

export interface Input {
  id: string;
  name?: string;
  parent?: string;
  root?: boolean;
  icon?: string;
  color?: string;
  private?: boolean;
  shared?: boolean;
  template?: string;
}

export async function run(f: Input, { api }: Deps) {
  if (f.private && f.shared) throw new CliError("Give --private or --shared, not both.", EXIT.usage);
  const body: ApiRequest<"updateFolder">["body"] = { name: f.name, icon: f.icon, color: f.color };
  if (f.parent) body.parentFolderId = f.parent;
  if (f.root) body.parentFolderId = null;
  if (f.private) body.isPrivate = true;
  if (f.shared) body.isPrivate = false;
  if (f.template !== undefined) body.templateId = f.template === "none" ? null : f.template;
  if (Object.values(body).every((v) => v === undefined))
    throw new CliError(
      "Nothing to change: give --name, --parent, --root, --icon, --color, --private, --shared or --template.",
      EXIT.usage,
    );
  return (await api.call("updateFolder", { params: { id: f.id }, body })).folder;
}

export const render = (folder: Folder) => info(`Updated ${folder.id}.`);
