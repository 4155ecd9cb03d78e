// notula actions list|done|reopen|assign
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as assign from "./assign.js";
import * as done from "./done.js";
import * as list from "./list.js";
import * as reopen from "./reopen.js";

export const registerActions = (program: Command) =>
  under(
    program
      .command("actions")
      .description("Action items from the meetings: list them, tick them done, give them to someone"),
    clientDeps,
    [list, done, reopen, assign],
  );
