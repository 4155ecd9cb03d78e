// notula auth switch [profile]: makes another profile active, as gh's `auth switch`
// does: the one named; with two profiles, the other one; at a terminal, one chosen from
// the list.
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { canPrompt } from "../../lib/context.js";
import { allProfiles } from "../../lib/profiles.js";
import * as use from "../profiles/use.js";
import type { AuthDeps } from "./target.js";

export const define = (auth: Command) =>
  auth
    .command("switch")
    .description("Make another profile active: the one named, the other of two, or one chosen at a terminal")
    .argument("[profile]", "the profile to make active")
    .addHelpText("after", "\nExamples:\n  notula auth switch\n  notula auth switch work");

export async function run({ profile }: { profile?: string }, _deps: AuthDeps) {
  const { active, profiles } = await allProfiles();
  const others = Object.keys(profiles).filter((n) => n !== active);
  let name = profile;
  if (name === undefined) {
    if (others.length === 1) name = others[0];
    else if (others.length === 0)
      throw new CliError(`"${active}" is the only profile; sign in with \`notula login\`.`, EXIT.usage);
    else if (canPrompt()) {
      const p = await import("@clack/prompts");
      const chosen = await p.select({
        message: "Which profile?",
        options: others.map((n) => ({ value: n, label: n, hint: profiles[n].server })),
      });
      if (p.isCancel(chosen)) throw new CliError("Cancelled; nothing was changed.", EXIT.usage);
      name = chosen;
    } else throw new CliError(`Name the profile to switch to: one of ${others.join(", ")}.`, EXIT.usage);
  }
  // Making it active is `profiles use`'s, with its answer to a name that is not there.
  return use.run({ name });
}

export const render = use.render;
