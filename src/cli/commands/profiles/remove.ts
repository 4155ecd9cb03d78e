// notula profiles remove <name>: signs the profile out as `logout` does (what notula made
// on its server is revoked, after asking; a key given to notula is only forgotten), then
// forgets the profile. A profile for the same server still signed in becomes active.
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { info } from "../../lib/output.js";
import { allProfiles, removeProfile } from "../../lib/profiles.js";
import { signOut, signedIn, type SignedOut } from "../../lib/sign-out.js";
import { trimmed } from "../../lib/server-url.js";
import { timeoutsFrom } from "../../lib/timeout.js";
import type { GlobalDeps } from "../../lib/command.js";

export const define = (profiles: Command) =>
  profiles
    .command("remove")
    .description("Sign a profile out (revoking on its server what notula made) and forget it")
    .argument("<name>", "profile name")
    .option("-y, --yes", "revoke without asking (needed when not at a terminal and there is something to revoke)")
    .addHelpText(
      "after",
      "\nA key given to notula (pasted, --with-token) is only forgotten: it may be in use elsewhere.\n\nExamples:\n  notula profiles remove work\n  notula profiles remove work --yes",
    );

export interface Result extends SignedOut {
  removedProfile: string;
  server: string;
  /** The active profile afterwards. */
  active: string;
}

export async function run({ name, yes }: { name: string; yes?: boolean }, { globals }: GlobalDeps): Promise<Result> {
  const { profiles } = await allProfiles();
  const profile = profiles[name];
  if (!profile) throw new CliError(`No profile "${name}"; see \`notula profiles list\`.`, EXIT.notFound);
  const out = await signOut(name, profile, { yes, requestMs: timeoutsFrom(globals).requestMs });
  const server = trimmed(profile.server);
  const { active } = await removeProfile(name, (other) => signedIn(other, profiles[other].server));
  return { removedProfile: name, server, ...out, active };
}

export const render = (r: Result) => {
  const revoked = r.keyRevoked || r.oauthRevoked ? "; what notula made there is revoked" : "";
  info(`Profile "${r.removedProfile}" (${r.server}) is forgotten${revoked}; profile "${r.active}" is active.`);
  if (r.keyKept)
    info(
      "Its API key was given to notula, not made by it, so it still works; revoke it under API keys in the web app if it should stop.",
    );
};
