// notula profiles remove <name>: forgets a profile and its stored credentials, and
// revokes nothing (`notula logout` revokes what notula made).
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { deleteKey } from "../../lib/credentials.js";
import { keyAccount, oauthAccount } from "../../lib/credential-for.js";
import { info } from "../../lib/output.js";
import { allProfiles, removeProfile } from "../../lib/profiles.js";

export const define = (profiles: Command) =>
  profiles
    .command("remove")
    .description("Forget a profile and its stored credentials (nothing is revoked on the server)")
    .argument("<name>", "profile name")
    .addHelpText(
      "after",
      "\nExamples:\n  notula profiles remove work\n  notula logout --profile work --yes   # revokes what notula made, then forgets",
    );

export async function run({ name }: { name: string }) {
  const { profiles } = await allProfiles();
  const profile = profiles[name];
  if (!profile) throw new CliError(`No profile "${name}"; see \`notula profiles list\`.`, EXIT.notFound);
  await deleteKey(keyAccount(name));
  await deleteKey(oauthAccount(name));
  const { active } = await removeProfile(name);
  return { removed: name, server: profile.server, active };
}

export const render = (r: Awaited<ReturnType<typeof run>>) =>
  info(`Profile "${r.removed}" (${r.server}) is forgotten; profile "${r.active}" is active.`);
