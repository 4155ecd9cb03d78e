// notula actions reopen <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { change, said } from "./change.js";

export const define = (actions: Command) =>
  examples(
    actions
      .command("reopen")
      .description("Mark an action item not done again")
      .argument("<id>", "action item id (ai_…)"),
    "notula actions reopen ai_…",
  );

export const run = (f: { id: string }, deps: Deps) => change(f.id, { done: false }, deps);
export const render = said;
