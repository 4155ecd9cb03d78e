// notula me | notula workspace: who you are, and the workspace you are in
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as me from "./me.js";
import * as show from "./show.js";

export const registerWorkspace = (program: Command) => under(program, clientDeps, [me, show]);
