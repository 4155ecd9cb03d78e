// notula members list|get|set-groups
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as get from "./get.js";
import * as list from "./list.js";
import * as setGroups from "./set-groups.js";

export const registerMembers = (program: Command) =>
  under(program.command("members").description("Workspace members"), clientDeps, [list, get, setGroups]);
