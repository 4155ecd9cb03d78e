// notula actions assign <id> [--owner NAME | --nobody] [--due DATE | --no-due]
import type { Command } from "commander";
import { checkFlags } from "../../lib/check-flags.js";
import { ActionItemUpdateBody } from "../../../shared/schemas/action-items.js";
import { CliError, EXIT } from "../../exit.js";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { change, said } from "./change.js";

export const define = (actions: Command) =>
  examples(
    actions
      .command("assign")
      .description("Give an action item to someone, or set its day")
      .argument("<id>", "action item id (ai_…)")
      .option("--owner <name>", "who takes it on (a member's name ties it to them)")
      .option("--nobody", "take its owner away")
      .option("--due <date>", "its day (YYYY-MM-DD)")
      .option("--no-due", "take its day away"),
    'notula actions assign ai_… --owner "David Chen" --due 2026-12-09',
  );

export interface Input {
  id: string;
  owner?: string;
  nobody?: boolean;
  /** A date, or false for --no-due; true (commander's default for a --no- flag) when neither was given. */
  due?: string | boolean;
}

const bodyOf = (f: Input) => ({
  ...(f.nobody ? { owner: null } : f.owner !== undefined ? { owner: f.owner } : {}),
  ...(f.due === false ? { due: null } : typeof f.due === "string" ? { due: f.due } : {}),
});

export function validate(f: Input) {
  if (f.nobody && f.owner !== undefined) throw new CliError("Give --owner or --nobody, not both.", EXIT.usage);
  checkFlags(ActionItemUpdateBody, bodyOf(f), { owner: "--owner", due: "--due" });
}

export const run = (f: Input, deps: Deps) => change(f.id, bodyOf(f), deps);
export const render = said;
