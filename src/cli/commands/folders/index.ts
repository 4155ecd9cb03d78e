// notula folders list|get|create|update|delete
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as create from "./create.js";
import * as del from "./delete.js";
import * as get from "./get.js";
import * as list from "./list.js";
import * as update from "./update.js";

export const registerFolders = (program: Command) =>
  under(program.command("folders").description("Folders"), clientDeps, [list, get, create, update, del]);
