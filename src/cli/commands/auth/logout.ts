// notula logout [url]: forgets a profile's credentials. Like gh's `auth logout`, it
// revokes on the server only what this CLI made (a key approved with `login --browser`,
// a browser sign-in's tokens): a key given to it may be in use elsewhere.
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { ApiError, createApiClient } from "../../lib/api-client.js";
import { canPrompt } from "../../lib/context.js";
import { deleteKey } from "../../lib/credentials.js";
import { keyAccount, oauthAccount, profileSecret } from "../../lib/credential-for.js";
import { info } from "../../lib/output.js";
import { timeoutsFrom } from "../../lib/timeout.js";
import { logoutTarget, trimmed, type AuthDeps } from "./target.js";

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

export interface Result {
  profile: string;
  server: string | null;
  removed: boolean;
  /** true: revoked on the server; false: that failed; null: nothing of notula's making to revoke. */
  keyRevoked: boolean | null;
  oauthRevoked: boolean | null;
  /** A key given to notula, forgotten here and still valid on the server. */
  keyKept: boolean;
}

async function confirmRevoking(server: string, yes: boolean | undefined) {
  if (yes) return;
  if (!canPrompt())
    throw new CliError(
      `Signing out revokes the credentials notula made on ${server}; pass --yes to do so when not at a terminal.`,
      EXIT.usage,
    );
  const p = await import("@clack/prompts");
  const ok = await p.confirm({ message: `Sign out of ${server} and revoke the credentials notula made there?` });
  if (p.isCancel(ok) || !ok) throw new CliError("Cancelled; nothing was changed.", EXIT.usage);
}

export async function run(f: { url?: string; yes?: boolean }, { globals }: AuthDeps): Promise<Result> {
  const { name, profile } = await logoutTarget(f.url, globals);
  if (!profile)
    return { profile: name, server: null, removed: false, keyRevoked: null, oauthRevoked: null, keyKept: false };
  const server = trimmed(profile.server);
  const key = await profileSecret(name, server, "key");
  const tokens = await profileSecret(name, server, "oauth");
  const mintedKey = key && profile.minted ? key : null;
  if (mintedKey || tokens) await confirmRevoking(server, f.yes);
  // Revoke on the server first, so a copy left anywhere stops working too; a key the
  // server no longer knows (401) is as good as revoked.
  let keyRevoked: boolean | null = null;
  if (mintedKey) {
    try {
      await createApiClient(server, mintedKey.value, timeoutsFrom(globals).requestMs).call("revokeOwnKey");
      keyRevoked = true;
    } catch (err) {
      keyRevoked = err instanceof ApiError && err.status === 401;
      if (!keyRevoked)
        info(
          `Warning: could not revoke the key on ${server} (${(err as Error).message}); revoke it under API keys in the web app.`,
        );
    }
  }
  let oauthRevoked: boolean | null = null;
  if (tokens) {
    const { revokeOAuthTokens } = await import("../../lib/web-login.js");
    oauthRevoked = await revokeOAuthTokens(server, tokens.value);
    if (!oauthRevoked)
      info(
        `Warning: could not end the browser sign-in on ${server}; its tokens are deleted here and expire on their own.`,
      );
  }
  const removedKey = await deleteKey(keyAccount(name));
  const removedOAuth = await deleteKey(oauthAccount(name));
  return {
    profile: name,
    server,
    removed: removedKey || removedOAuth,
    keyRevoked,
    oauthRevoked,
    keyKept: Boolean(key && !profile.minted),
  };
}

export const render = (r: Result) => {
  if (!r.removed) return info(`Nothing was stored for profile "${r.profile}".`);
  const revoked = r.keyRevoked || r.oauthRevoked ? "; what notula made there is revoked" : "";
  info(`Signed out of ${r.server} (profile "${r.profile}")${revoked}.`);
  if (r.keyKept)
    info(
      "The API key was given to notula, not made by it, so it is only forgotten here and still works; revoke it under API keys in the web app if it should stop.",
    );
};
