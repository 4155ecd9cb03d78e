// notula login [url]
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { createApiClient } from "../../lib/api-client.js";
import { readInput } from "../../lib/context.js";
import { saveKey } from "../../lib/credentials.js";
import { keyAccount, oauthAccount } from "../../lib/credential-for.js";
import { info } from "../../lib/output.js";
import { timeoutsFrom } from "../../lib/timeout.js";
import { saveProfile } from "../../lib/profiles.js";
import { askKey, loginTarget, type AuthDeps } from "./target.js";

export const define = (program: Command) =>
  program
    .command("login")
    .description("Sign in to a server and save it as a profile (with its own credential), made active")
    .argument("[url]", "the server (default: --server, NOTULA_URL or the profile's)")
    .option("--with-token", "read the API key from standard input")
    .option("--browser", "approve an API key for this computer in the web app (any member)")
    .option("--web", "sign in through the browser instead (OAuth; gives the MCP bridge access)")
    .addHelpText(
      "after",
      '\nThe profile is --profile NAME (NOTULA_PROFILE); without one, the profile already made for that server, else "default".\n\nExamples:\n  notula login https://notes.example.com --browser\n  notula login https://notes.example.com --profile work\n  echo "$KEY" | notula login http://127.0.0.1:8787 --with-token --profile ci',
    );

export interface Input {
  url?: string;
  withToken?: boolean;
  browser?: boolean;
  web?: boolean;
}

const keychainNotice = (what: string, file: string | undefined) =>
  info(`Notice: no system keychain is available, so the ${what} stored in ${file} (readable by you only).`);

/** Signs in, says so on stderr, and returns what --json prints. */
export async function run(f: Input, { globals }: AuthDeps) {
  const { name, server } = await loginTarget(f.url, globals);
  if (f.web) {
    const { webLogin, saveOAuthTokens } = await import("../../lib/web-login.js");
    const tokens = await webLogin(server);
    const stored = await saveOAuthTokens(oauthAccount(name), tokens);
    await saveProfile(name, { server, method: "oauth" });
    if (stored.where === "file") keychainNotice("tokens are", stored.file);
    info(
      `Signed in to ${server} in the browser; profile "${name}" is active. \`notula mcp\` can now reach its MCP server; the other commands need an API key (--browser or --with-token).`,
    );
    return { server, profile: name, stored: stored.where, oauth: true };
  }
  const key = f.browser
    ? await (await import("../../lib/browser-key.js")).browserKeyLogin(server)
    : f.withToken
      ? (await readInput("-")).trim()
      : await askKey(server);
  if (!key) throw new CliError("The API key on standard input is empty.", EXIT.usage);
  const me = await createApiClient(server, key, timeoutsFrom(globals).requestMs).call("getMe");
  const stored = await saveKey(keyAccount(name), key);
  await saveProfile(name, { server, method: "api-key", minted: Boolean(f.browser) });
  if (stored.where === "file") keychainNotice("key is", stored.file);
  info(`Signed in to ${server} as ${me.user.email} (workspace ${me.workspace.name}); profile "${name}" is active.`);
  return { server, profile: name, user: me.user, workspace: me.workspace, stored: stored.where };
}
