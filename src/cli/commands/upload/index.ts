// notula upload <file>
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as file from "./file.js";

export const registerUpload = (program: Command) => under(program, clientDeps, [file]);
