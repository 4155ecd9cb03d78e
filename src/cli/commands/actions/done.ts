// notula actions done <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { change, said } from "./change.js";

export const define = (actions: Command) =>
  examples(
    actions.command("done").description("Tick an action item done").argument("<id>", "action item id (ai_…)"),
    "notula actions done ai_…",
  );

export const run = (f: { id: string }, deps: Deps) => change(f.id, { done: true }, deps);
export const render = said;
