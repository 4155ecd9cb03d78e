// notula members list|get|set-groups|remove
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as get from "./get.js";
import * as list from "./list.js";
import * as remove from "./remove.js";
import * as setGroups from "./set-groups.js";

export const registerMembers = (program: Command) =>
  under(program.command("members").description("Workspace members"), clientDeps, [list, get, setGroups, remove]);
