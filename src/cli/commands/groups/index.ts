// notula groups list
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as list from "./list.js";

export const registerGroups = (program: Command) =>
  under(program.command("groups").description("User groups"), clientDeps, [list]);
