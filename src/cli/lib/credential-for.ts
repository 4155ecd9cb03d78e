// Which credential a command sends, in one place: an explicit --api-key or
// NOTULA_API_KEY always wins; then the selected profile's own credential, and only to
// that profile's server; never another profile's. `notula auth status` shows the
// outcome of these same rules for every profile.
import { CliError, EXIT } from "../exit.js";
import { deleteKey, loadKey, saveKey, type Stored } from "./credentials.js";
import { selectProfile, type Selection, type SelectionFlags } from "./profiles.js";
import { environment } from "../../config/environment.js";

export const keyAccount = (profile: string) => `profile:${profile}`;
export const oauthAccount = (profile: string) => `profile:${profile}#oauth`;

export type CredentialSource = "flag" | "env" | Stored;

/**
 * A profile's stored secret; a secret stored by earlier versions under the server's
 * URL moves to the first profile of that server that asks for it.
 */
export async function profileSecret(
  profile: string,
  server: string,
  kind: "key" | "oauth",
): Promise<{ value: string; from: Stored } | null> {
  const account = kind === "key" ? keyAccount(profile) : oauthAccount(profile);
  const own = await loadKey(account, { ignoreEnv: true });
  if (own) return { value: own.key, from: own.from as Stored };
  const legacyAccount = kind === "key" ? server : `${server}#oauth`;
  const legacy = await loadKey(legacyAccount, { ignoreEnv: true });
  if (!legacy) return null;
  const saved = await saveKey(account, legacy.key);
  await deleteKey(legacyAccount);
  return { value: legacy.key, from: saved.where };
}

function notSignedIn(sel: Selection, what: string): CliError {
  // A profile named that was never made: say so, not "not signed in" to some address.
  if (sel.named && !sel.profile)
    return new CliError(
      `No profile "${sel.name}": \`notula profiles list\` shows the profiles there are; \`notula login URL --profile ${sel.name}\` makes it.`,
      EXIT.auth,
    );
  if (sel.profile && !sel.ownServer)
    return new CliError(
      `Profile "${sel.name}" is for ${sel.profile.server}, not ${sel.server}, and its key is never sent elsewhere: sign in with \`notula login ${sel.server} --profile NAME\`, or pass NOTULA_API_KEY.`,
      EXIT.auth,
    );
  return new CliError(
    `Not signed in to ${sel.server}${sel.profile ? ` (profile "${sel.name}")` : ""}: ${what}`,
    EXIT.auth,
  );
}

/** The API key for REST commands. */
export async function apiKeyFor(
  flags: SelectionFlags,
): Promise<{ key: string; from: CredentialSource; selection: Selection }> {
  const selection = await selectProfile(flags);
  if (flags.apiKey) return { key: flags.apiKey, from: "flag", selection };
  const fromEnv = environment().apiKey;
  if (fromEnv) return { key: fromEnv, from: "env", selection };
  if (selection.ownServer) {
    const stored = await profileSecret(selection.name, selection.server, "key");
    if (stored) return { key: stored.value, from: stored.from, selection };
    if (selection.profile?.method === "oauth")
      throw new CliError(
        `Profile "${selection.name}" signed in through the browser (\`login --web\`), which opens the MCP server only; for these commands run \`notula login ${selection.server} --browser --profile ${selection.name}\`.`,
        EXIT.auth,
      );
  }
  throw notSignedIn(selection, "run `notula login` or set NOTULA_API_KEY.");
}

/**
 * The bearer for the MCP bridge: an explicit key; else what the profile last signed in
 * with (the browser sign-in's tokens, refreshed as needed, or its API key).
 */
export async function mcpBearerFor(
  flags: SelectionFlags,
): Promise<{ bearer: string; from: "flag" | "env" | "oauth" | "key"; selection: Selection }> {
  const selection = await selectProfile(flags);
  if (flags.apiKey) return { bearer: flags.apiKey, from: "flag", selection };
  const fromEnv = environment().apiKey;
  if (fromEnv) return { bearer: fromEnv, from: "env", selection };
  if (selection.ownServer) {
    const { oauthAccessToken } = await import("./web-login.js");
    const oauth = async () => {
      const secret = await profileSecret(selection.name, selection.server, "oauth");
      return secret ? await oauthAccessToken(oauthAccount(selection.name), secret.value) : null;
    };
    const key = async () => (await profileSecret(selection.name, selection.server, "key"))?.value ?? null;
    const order: ["oauth" | "key", () => Promise<string | null>][] = [
      ["key", key],
      ["oauth", oauth],
    ];
    if (selection.profile?.method === "oauth") order.reverse();
    for (const [from, get] of order) {
      const bearer = await get();
      if (bearer) return { bearer, from, selection };
    }
  }
  throw notSignedIn(selection, `set NOTULA_API_KEY, or run \`notula login ${selection.server} --web\`.`);
}
