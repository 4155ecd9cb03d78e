// notula logout [url]: forgets a profile's credentials. Like gh's `auth logout`, it
// revokes on the server only what this CLI made (a key approved with `login --browser`,
// a browser sign-in's tokens): a key given to it may be in use elsewhere.
import type { Command } from "commander";
import { info } from "../../lib/output.js";
import { allProfiles } from "../../lib/profiles.js";
import { trimmed } from "../../lib/server-url.js";
import { activateSignedIn, signOut, type SignedOut } from "../../lib/sign-out.js";
import { timeoutsFrom } from "../../lib/timeout.js";
import { logoutTarget, type AuthDeps } from "./target.js";

export const define = (program: Command) =>
  program
    .command("logout")
    .description(
      "Forget a profile's credentials, and revoke on its server those notula made (a --browser key, a --web sign-in)",
    )
    .argument(
      "[url]",
      "the server whose profile to sign out of (default: --profile, NOTULA_PROFILE or the active profile)",
    )
    .option("-y, --yes", "revoke without asking (needed when not at a terminal and there is something to revoke)")
    .addHelpText(
      "after",
      "\nA key given to notula (pasted, --with-token) is only forgotten here: it may be in use elsewhere, so revoke it under API keys in the web app if it should stop working.\n\nExamples:\n  notula logout\n  notula logout https://notes.example.com --yes\n  notula logout --profile work",
    );

export interface Result extends SignedOut {
  profile: string;
  server: string | null;
  /** The active profile afterwards: another one for the same server, when it is still signed in. */
  active: string;
}

export async function run(f: { url?: string; yes?: boolean }, { globals }: AuthDeps): Promise<Result> {
  const { name, profile } = await logoutTarget(f.url, globals);
  const { active } = await allProfiles();
  if (!profile)
    return {
      profile: name,
      server: null,
      removed: false,
      keyRevoked: null,
      oauthRevoked: null,
      keyKept: false,
      active,
    };
  const server = trimmed(profile.server);
  const out = await signOut(name, profile, { yes: f.yes, requestMs: timeoutsFrom(globals).requestMs });
  return { profile: name, server, ...out, active: await activateSignedIn(name, server) };
}

export const render = (r: Result) => {
  if (!r.removed) return info(`Nothing was stored for profile "${r.profile}".`);
  const revoked = r.keyRevoked || r.oauthRevoked ? "; what notula made there is revoked" : "";
  info(`Signed out of ${r.server} (profile "${r.profile}")${revoked}.`);
  if (r.active !== r.profile) info(`Profile "${r.active}", signed in to the same server, is active now.`);
  if (r.keyKept)
    info(
      "The API key was given to notula, not made by it, so it is only forgotten here and still works; revoke it under API keys in the web app if it should stop.",
    );
};
