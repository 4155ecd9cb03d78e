// notula folders create
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { Folder } from "../../lib/api-types.js";
import { required } from "../../lib/context.js";

export const define = (folders: Command) =>
  folders
    .command("create")
    .description("Create a folder (owned by you unless --owner)")
    .option("--name <name>", "name")
    .option("--owner <userId>", "owner's user id")
    .option("--parent <folderId>", "parent folder")
    .option("--icon <icon>", "icon")
    .option("--color <hex>", "colour, e.g. #4F46E5")
    .option("--private", "visible to its members only")
    .addHelpText("after", "\nExample:\n  notula folders create --name Customers --color '#0EA5E9'");

export interface Input {
  name?: string;
  owner?: string;
  parent?: string;
  icon?: string;
  color?: string;
  private?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  const name = await required(f.name, "--name", "Folder name");
  const owner = f.owner ?? (await api.call("getMe")).user.id;
  const { folder } = await api.call("createFolder", {
    body: {
      name,
      ownerUserId: owner,
      parentFolderId: f.parent,
      icon: f.icon,
      color: f.color,
      isPrivate: f.private ?? undefined,
    },
  });
  return folder;
}

export const render = (folder: Folder) => process.stdout.write(`${folder.id}\n`);
