// notula login | logout | profiles list | profiles use
import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { ApiError, createApiClient } from "../lib/api-client.js";
import { canPrompt, readInput } from "../lib/context.js";
import { deleteKey, loadKey, saveKey } from "../lib/credentials.js";
import { info, printJson, printTable } from "../lib/output.js";
import { profileStore, resolveServer } from "../lib/profiles.js";

async function askKey(server: string): Promise<string> {
  if (!canPrompt()) throw new CliError("No API key given: pass --with-token and send the key on standard input.", EXIT.usage);
  const p = await import("@clack/prompts");
  p.intro(`Sign in to ${server}`);
  const key = await p.password({ message: "API key (ntl_…)", validate: (v) => (v?.trim() ? undefined : "Required") });
  if (p.isCancel(key)) throw new CliError("Cancelled.", EXIT.usage);
  return String(key).trim();
}

export function registerAuth(program: Command) {
  program
    .command("login")
    .description("Sign in to a server with an API key, and make it the active profile")
    .argument("[url]", "the server (default: --server, NOTULA_URL or the active profile)")
    .option("--with-token", "read the API key from standard input")
    .option("--browser", "approve an API key for this computer in the web app (any member)")
    .option("--web", "sign in through the browser instead (OAuth; gives the MCP bridge access)")
    .option("--profile <name>", "save the server under this profile name", "default")
    .addHelpText("after", "\nExamples:\n  notula login https://notes.example.com --browser\n  notula login https://notes.example.com\n  echo \"$KEY\" | notula login http://127.0.0.1:8787 --with-token")
    .action(async (url: string | undefined, f, cmd: Command) => {
      const server = await resolveServer(url ?? cmd.optsWithGlobals().server);
      if (f.web) {
        const { webLogin, saveOAuthTokens } = await import("../lib/web-login.js");
        const tokens = await webLogin(server);
        const stored = await saveOAuthTokens(server, tokens);
        const store = await profileStore();
        store.set("profiles", { ...store.get("profiles"), [f.profile]: { server } });
        store.set("active", f.profile);
        if (stored.where === "file") info(`Notice: no system keychain is available, so the tokens are stored in ${stored.file} (readable by you only).`);
        info(`Signed in to ${server} in the browser. \`notula mcp\` can now reach its MCP server; the other commands need an API key (--with-token).`);
        if (cmd.optsWithGlobals().json) printJson({ server, profile: f.profile, stored: stored.where, oauth: true });
        return;
      }
      const key = f.browser
        ? await (await import("../lib/browser-key.js")).browserKeyLogin(server)
        : f.withToken
          ? (await readInput("-")).trim()
          : await askKey(server);
      if (!key) throw new CliError("The API key on standard input is empty.", EXIT.usage);
      const me = await createApiClient(server, key).call("getMe");
      const stored = await saveKey(server, key);
      const store = await profileStore();
      store.set("profiles", { ...store.get("profiles"), [f.profile]: { server } });
      store.set("active", f.profile);
      if (stored.where === "file")
        info(`Notice: no system keychain is available, so the key is stored in ${stored.file} (readable by you only).`);
      info(`Signed in to ${server} as ${me.user.email} (workspace ${me.workspace.name}); profile "${f.profile}" is active.`);
      if (cmd.optsWithGlobals().json) printJson({ server, profile: f.profile, user: me.user, workspace: me.workspace, stored: stored.where });
    });

  program
    .command("logout")
    .description("Revoke this computer's credentials for a server and forget them")
    .argument("[url]", "the server (default: the active profile's)")
    .action(async (url: string | undefined, _f, cmd: Command) => {
      const server = await resolveServer(url ?? cmd.optsWithGlobals().server);
      const stored = await loadKey(server, { ignoreEnv: true });
      // Revoke on the server first, so a copy of the key left anywhere stops working too;
      // a key the server no longer knows (401) is as good as revoked.
      let keyRevoked: boolean | null = null;
      if (stored) {
        try {
          await createApiClient(server, stored.key).call("revokeOwnKey");
          keyRevoked = true;
        } catch (err) {
          keyRevoked = err instanceof ApiError && err.status === 401;
          if (!keyRevoked) info(`Warning: could not revoke the key on ${server} (${(err as Error).message}); revoke it under API keys in the web app.`);
        }
      }
      const { revokeOAuthTokens, oauthAccount } = await import("../lib/web-login.js");
      const hadOAuth = Boolean(await loadKey(oauthAccount(server), { ignoreEnv: true }));
      const oauthRevoked = hadOAuth ? await revokeOAuthTokens(server) : null;
      if (hadOAuth && !oauthRevoked) info(`Warning: could not end the browser sign-in on ${server}; its tokens are deleted here and expire on their own.`);
      const removedKey = await deleteKey(server);
      const removedOAuth = await deleteKey(oauthAccount(server));
      const removed = removedKey || removedOAuth;
      if (cmd.optsWithGlobals().json) printJson({ server, removed, keyRevoked, oauthRevoked });
      else info(removed ? `Signed out of ${server}${keyRevoked || oauthRevoked ? "; the credentials are revoked on the server" : ""}.` : `Nothing was stored for ${server}.`);
    });

  const profiles = program.command("profiles").description("Servers you have signed in to");
  profiles
    .command("list")
    .description("List profiles; * marks the active one")
    .action(async (_f, cmd: Command) => {
      const store = await profileStore();
      const active = store.get("active");
      const rows = Object.entries(store.get("profiles")).map(([name, p]) => ({ name, server: p.server, active: name === active }));
      if (cmd.optsWithGlobals().json) return printJson({ profiles: rows });
      printTable(["", "NAME", "SERVER"], rows.map((r) => [r.active ? "*" : "", r.name, r.server]));
    });
  profiles
    .command("use")
    .description("Make a profile the active one")
    .argument("<name>", "profile name")
    .action(async (name: string, _f, cmd: Command) => {
      const store = await profileStore();
      if (!store.get("profiles")[name]) throw new CliError(`No profile "${name}"; see \`notula profiles list\`.`, EXIT.notFound);
      store.set("active", name);
      if (cmd.optsWithGlobals().json) printJson({ active: name, server: store.get("profiles")[name].server });
      else info(`Profile "${name}" (${store.get("profiles")[name].server}) is active.`);
    });
}
