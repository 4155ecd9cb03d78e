// notula logout [url]
import type { Command } from "commander";
import { ApiError, createApiClient } from "../../lib/api-client.js";
import { deleteKey } from "../../lib/credentials.js";
import { keyAccount, oauthAccount, profileSecret } from "../../lib/credential-for.js";
import { info } from "../../lib/output.js";
import { allProfiles } from "../../lib/profiles.js";
import { loginTarget, trimmed, type AuthDeps } from "./target.js";

export const define = (program: Command) =>
  program
    .command("logout")
    .description("Revoke a profile's credentials on its server (API key and browser sign-in) and forget them")
    .argument("[url]", "the server, to pick its profile (default: --profile, NOTULA_PROFILE or the active profile)");

export interface Result {
  profile: string;
  server: string;
  removed: boolean;
  keyRevoked: boolean | null;
  oauthRevoked: boolean | null;
}

export async function run(f: { url?: string }, { globals }: AuthDeps): Promise<Result> {
  // The same profile a sign-in with these arguments would use; its credentials go back to the server they were made for.
  const target = await loginTarget(f.url, globals);
  const name = target.name;
  const server = trimmed((await allProfiles()).profiles[name]?.server ?? target.server);
  const key = await profileSecret(name, server, "key");
  // Revoke on the server first, so a copy of the key left anywhere stops working too;
  // a key the server no longer knows (401) is as good as revoked.
  let keyRevoked: boolean | null = null;
  if (key) {
    try {
      await createApiClient(server, key.value).call("revokeOwnKey");
      keyRevoked = true;
    } catch (err) {
      keyRevoked = err instanceof ApiError && err.status === 401;
      if (!keyRevoked)
        info(
          `Warning: could not revoke the key on ${server} (${(err as Error).message}); revoke it under API keys in the web app.`,
        );
    }
  }
  const tokens = await profileSecret(name, server, "oauth");
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
  return { profile: name, server, removed: removedKey || removedOAuth, keyRevoked, oauthRevoked };
}

export const render = (r: Result) =>
  info(
    r.removed
      ? `Signed out of ${r.server} (profile "${r.profile}")${r.keyRevoked || r.oauthRevoked ? "; the credentials are revoked on the server" : ""}.`
      : `Nothing was stored for profile "${r.profile}".`,
  );
