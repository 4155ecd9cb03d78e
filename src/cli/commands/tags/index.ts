// notula tags list
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as list from "./list.js";

export const registerTags = (program: Command) =>
  under(program.command("tags").description("Workspace tags"), clientDeps, [list]);
