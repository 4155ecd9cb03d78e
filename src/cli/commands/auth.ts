// notula login | logout | auth status | profiles list | profiles use
import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { ApiError, createApiClient } from "../lib/api-client.js";
import { canPrompt, readInput } from "../lib/context.js";
import { deleteKey, saveKey } from "../lib/credentials.js";
import { keyAccount, oauthAccount, profileSecret } from "../lib/credential-for.js";
import { info, printJson, printTable } from "../lib/output.js";
import { allProfiles, DEFAULT_SERVER, profileStore, saveProfile, selectProfile } from "../lib/profiles.js";

async function askKey(server: string): Promise<string> {
  if (!canPrompt())
    throw new CliError("No API key given: pass --with-token and send the key on standard input.", EXIT.usage);
  const p = await import("@clack/prompts");
  p.intro(`Sign in to ${server}`);
  const key = await p.password({ message: "API key (ntl_…)", validate: (v) => (v?.trim() ? undefined : "Required") });
  if (p.isCancel(key)) throw new CliError("Cancelled.", EXIT.usage);
  return String(key).trim();
}

const trimmed = (url: string) => url.replace(/\/+$/, "");

/**
 * Where a sign-in goes: the profile named (--profile, NOTULA_PROFILE); else, for a URL,
 * the profile already made for that server, or "default"; else the active profile.
 */
async function loginTarget(
  url: string | undefined,
  flags: { profile?: string; server?: string },
): Promise<{ name: string; server: string }> {
  const { active, profiles } = await allProfiles();
  const named = flags.profile ?? process.env.NOTULA_PROFILE;
  const given = url ?? flags.server ?? process.env.NOTULA_URL;
  if (named) return { name: named, server: trimmed(given ?? profiles[named]?.server ?? DEFAULT_SERVER) };
  if (given) {
    const server = trimmed(given);
    const existing = Object.entries(profiles).find(([, p]) => trimmed(p.server) === server)?.[0];
    return { name: existing ?? "default", server };
  }
  return { name: active, server: trimmed(profiles[active]?.server ?? DEFAULT_SERVER) };
}

/** How a stored secret reads in `auth status`. */
async function describeSecret(name: string, server: string, kind: "key" | "oauth"): Promise<string | null> {
  return (await profileSecret(name, server, kind))?.from ?? null;
}

export function registerAuth(program: Command) {
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
    )
    .action(async (url: string | undefined, f, cmd: Command) => {
      const globals = cmd.optsWithGlobals();
      const { name, server } = await loginTarget(url, globals);
      if (f.web) {
        const { webLogin, saveOAuthTokens } = await import("../lib/web-login.js");
        const tokens = await webLogin(server);
        const stored = await saveOAuthTokens(oauthAccount(name), tokens);
        await saveProfile(name, { server, method: "oauth" });
        if (stored.where === "file")
          info(
            `Notice: no system keychain is available, so the tokens are stored in ${stored.file} (readable by you only).`,
          );
        info(
          `Signed in to ${server} in the browser; profile "${name}" is active. \`notula mcp\` can now reach its MCP server; the other commands need an API key (--browser or --with-token).`,
        );
        if (globals.json) printJson({ server, profile: name, stored: stored.where, oauth: true });
        return;
      }
      const key = f.browser
        ? await (await import("../lib/browser-key.js")).browserKeyLogin(server)
        : f.withToken
          ? (await readInput("-")).trim()
          : await askKey(server);
      if (!key) throw new CliError("The API key on standard input is empty.", EXIT.usage);
      const me = await createApiClient(server, key).call("getMe");
      const stored = await saveKey(keyAccount(name), key);
      await saveProfile(name, { server, method: "api-key" });
      if (stored.where === "file")
        info(`Notice: no system keychain is available, so the key is stored in ${stored.file} (readable by you only).`);
      info(`Signed in to ${server} as ${me.user.email} (workspace ${me.workspace.name}); profile "${name}" is active.`);
      if (globals.json)
        printJson({ server, profile: name, user: me.user, workspace: me.workspace, stored: stored.where });
    });

  program
    .command("logout")
    .description("Revoke a profile's credentials on its server (API key and browser sign-in) and forget them")
    .argument("[url]", "the server, to pick its profile (default: --profile, NOTULA_PROFILE or the active profile)")
    .action(async (url: string | undefined, _f, cmd: Command) => {
      const globals = cmd.optsWithGlobals();
      // The same profile a sign-in with these arguments would use; its credentials go back to the server they were made for.
      const target = await loginTarget(url, globals);
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
        const { revokeOAuthTokens } = await import("../lib/web-login.js");
        oauthRevoked = await revokeOAuthTokens(server, tokens.value);
        if (!oauthRevoked)
          info(
            `Warning: could not end the browser sign-in on ${server}; its tokens are deleted here and expire on their own.`,
          );
      }
      const removedKey = await deleteKey(keyAccount(name));
      const removedOAuth = await deleteKey(oauthAccount(name));
      const removed = removedKey || removedOAuth;
      if (globals.json) printJson({ profile: name, server, removed, keyRevoked, oauthRevoked });
      else
        info(
          removed
            ? `Signed out of ${server} (profile "${name}")${keyRevoked || oauthRevoked ? "; the credentials are revoked on the server" : ""}.`
            : `Nothing was stored for profile "${name}".`,
        );
    });

  program
    .command("auth")
    .description("Credentials")
    .command("status")
    .description("Show each profile's server and stored credentials, and which credential commands will use now")
    .addHelpText(
      "after",
      "\nOrder: --api-key, then NOTULA_API_KEY, then the selected profile's own credential (only to its own server).\n\nExample:\n  notula auth status --profile work",
    )
    .action(async (_f, cmd: Command) => {
      const globals = cmd.optsWithGlobals();
      const { active, profiles } = await allProfiles();
      const selection = await selectProfile(globals);
      const explicit = globals.apiKey ? "--api-key" : process.env.NOTULA_API_KEY ? "NOTULA_API_KEY" : null;
      const rows = [];
      for (const [name, p] of Object.entries(profiles)) {
        const apiKey = await describeSecret(name, trimmed(p.server), "key");
        const oauth = await describeSecret(name, trimmed(p.server), "oauth");
        rows.push({
          name,
          server: p.server,
          active: name === active,
          selected: name === selection.name,
          method: p.method ?? (apiKey ? "api-key" : oauth ? "oauth" : null),
          apiKey,
          oauth,
        });
      }
      const using = explicit
        ? { source: explicit, server: selection.server }
        : selection.ownServer && rows.find((r) => r.name === selection.name)?.apiKey
          ? { source: `profile "${selection.name}"`, server: selection.server }
          : { source: null, server: selection.server };
      if (globals.json) return printJson({ profiles: rows, selected: selection.name, using });
      printTable(
        ["", "PROFILE", "SERVER", "SIGNED IN WITH", "API KEY", "BROWSER SIGN-IN"],
        rows.map((r) => [r.selected ? "*" : "", r.name, r.server, r.method ?? "-", r.apiKey ?? "-", r.oauth ?? "-"]),
      );
      info(
        using.source
          ? `Commands use ${using.source} for ${using.server}.`
          : `No credential for ${using.server}: run \`notula login\` or set NOTULA_API_KEY.`,
      );
    });

  const profilesCmd = program.command("profiles").description("Servers you have signed in to");
  profilesCmd
    .command("list")
    .description("List profiles; * marks the active one")
    .action(async (_f, cmd: Command) => {
      const store = await profileStore();
      const active = store.get("active");
      const rows = Object.entries(store.get("profiles")).map(([name, p]) => ({
        name,
        server: p.server,
        active: name === active,
      }));
      if (cmd.optsWithGlobals().json) return printJson({ profiles: rows });
      printTable(
        ["", "NAME", "SERVER"],
        rows.map((r) => [r.active ? "*" : "", r.name, r.server]),
      );
    });
  profilesCmd
    .command("use")
    .description("Make a profile the active one")
    .argument("<name>", "profile name")
    .action(async (name: string, _f, cmd: Command) => {
      const store = await profileStore();
      if (!store.get("profiles")[name])
        throw new CliError(`No profile "${name}"; see \`notula profiles list\`.`, EXIT.notFound);
      store.set("active", name);
      if (cmd.optsWithGlobals().json) printJson({ active: name, server: store.get("profiles")[name].server });
      else info(`Profile "${name}" (${store.get("profiles")[name].server}) is active.`);
    });
}
