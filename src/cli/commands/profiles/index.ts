// notula profiles list|use|remove
import type { Command } from "commander";
import { globalDeps, under } from "../../lib/command.js";
import * as list from "./list.js";
import * as use from "./use.js";
import * as remove from "./remove.js";

export const registerProfiles = (program: Command) =>
  under(program.command("profiles").description("Servers you have signed in to"), globalDeps, [list, use, remove]);
