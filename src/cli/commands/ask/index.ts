// notula ask <question>
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as question from "./question.js";

export const registerAsk = (program: Command) => under(program, clientDeps, [question]);
