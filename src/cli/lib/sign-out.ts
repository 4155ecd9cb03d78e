// Signing a profile out, for `logout` and `profiles remove` alike. Like gh's `auth
// logout`, what this CLI made on the server (a key approved with `login --browser`, a
// browser sign-in's tokens) is revoked there first, so that a copy left anywhere stops
// working; a key given to it (pasted, --with-token) may be in use elsewhere, and is only
// forgotten. Then the profile's stored credentials are deleted.
import { CliError, EXIT } from "../exit.js";
import { ApiError, createApiClient } from "./api-client.js";
import { canPrompt } from "./context.js";
import { deleteKey } from "./credentials.js";
import { keyAccount, oauthAccount, profileSecret } from "./credential-for.js";
import { warn } from "./output.js";
import { allProfiles, profileStore, signedInSibling, type Profile } from "./profiles.js";
import { trimmed } from "./server-url.js";

export interface SignedOut {
  /** Whether anything was stored for the profile. */
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

/** Revokes what notula made for profile `name` on its server (asking first, unless `yes`), then forgets its credentials. */
export async function signOut(
  name: string,
  profile: Profile,
  o: { yes?: boolean; requestMs: number },
): Promise<SignedOut> {
  const server = trimmed(profile.server);
  const key = await profileSecret(name, server, "key");
  const tokens = await profileSecret(name, server, "oauth");
  const mintedKey = key && profile.minted ? key : null;
  if (mintedKey || tokens) await confirmRevoking(server, o.yes);
  // A key the server no longer knows (401) is as good as revoked.
  let keyRevoked: boolean | null = null;
  if (mintedKey) {
    try {
      await createApiClient(server, mintedKey.value, o.requestMs).call("revokeOwnKey");
      keyRevoked = true;
    } catch (err) {
      keyRevoked = err instanceof ApiError && err.status === 401;
      if (!keyRevoked)
        warn(
          `Warning: could not revoke the key on ${server} (${(err as Error).message}); revoke it under API keys in the web app.`,
        );
    }
  }
  let oauthRevoked: boolean | null = null;
  if (tokens) {
    const { revokeOAuthTokens } = await import("./web-login.js");
    oauthRevoked = await revokeOAuthTokens(server, tokens.value);
    if (!oauthRevoked)
      warn(
        `Warning: could not end the browser sign-in on ${server}; its tokens are deleted here and expire on their own.`,
      );
  }
  const removedKey = await deleteKey(keyAccount(name));
  const removedOAuth = await deleteKey(oauthAccount(name));
  return { removed: removedKey || removedOAuth, keyRevoked, oauthRevoked, keyKept: Boolean(key && !profile.minted) };
}

/** Whether a profile holds a credential of its own. */
export async function signedIn(name: string, server: string): Promise<boolean> {
  return Boolean((await profileSecret(name, server, "key")) ?? (await profileSecret(name, server, "oauth")));
}

/**
 * After `name` (the active profile) is signed out: another profile for the same server
 * that is still signed in becomes active, as gh switches to the host's other account.
 * Returns the active profile's name.
 */
export async function activateSignedIn(name: string, server: string): Promise<string> {
  const { active, profiles } = await allProfiles();
  if (active !== name) return active;
  const other = await signedInSibling(profiles, name, server, (n) => signedIn(n, profiles[n].server));
  if (!other) return active;
  (await profileStore()).set("active", other);
  return other;
}
