// notula models list|pull|path: the local whisper engine's models.
import type { Command } from "commander";
import { globalDeps, under } from "../../lib/command.js";
import * as list from "./list.js";
import * as path from "./path.js";
import * as pull from "./pull.js";

export const registerModels = (program: Command) =>
  under(program.command("models").description("Models of the local whisper speech-to-text engine"), globalDeps, [
    list,
    pull,
    path,
  ]);
