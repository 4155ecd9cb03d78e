// notula profiles use <name>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { CliError, EXIT } from "../../exit.js";
import { info } from "../../lib/output.js";
import { profileStore } from "../../lib/profiles.js";

export const define = (profiles: Command) =>
  examples(
    profiles.command("use").description("Make a profile the active one").argument("<name>", "profile name"),
    "notula profiles use work",
  );

export async function run({ name }: { name: string }) {
  const store = await profileStore();
  const profile = store.get("profiles")[name];
  if (!profile) throw new CliError(`No profile "${name}"; see \`notula profiles list\`.`, EXIT.notFound);
  store.set("active", name);
  return { active: name, server: profile.server };
}

export const render = (r: { active: string; server: string }) => info(`Profile "${r.active}" (${r.server}) is active.`);
