// Which profile and server a sign-in or sign-out is about, and asking for a key.
import { CliError, EXIT } from "../../exit.js";
import { canPrompt } from "../../lib/context.js";
import { allProfiles, DEFAULT_SERVER, type Profile } from "../../lib/profiles.js";
import { profileSecret } from "../../lib/credential-for.js";
import type { GlobalDeps, GlobalFlags } from "../../lib/command.js";
import { environment } from "../../../config/environment.js";
import { serverUrl, trimmed } from "../../lib/server-url.js";

/** The credential commands read the global flags (profiles and keys live in the user's config). */
export type AuthDeps = GlobalDeps;

/**
 * The name of a new profile for `server`: "default" while that one holds no sign-in,
 * else the server's host (and port), as gh keeps one entry per host.
 */
async function newProfileName(server: string, profiles: Record<string, Profile>): Promise<string> {
  const fallback = profiles.default;
  const unused =
    !fallback ||
    (!(await profileSecret("default", fallback.server, "key")) &&
      !(await profileSecret("default", fallback.server, "oauth")));
  if (unused) return "default";
  let host: string;
  try {
    host = new URL(server).host;
  } catch {
    host = server;
  }
  let name = host;
  for (let n = 2; profiles[name]; n++) name = `${host}-${n}`;
  return name;
}

/**
 * Where a sign-in goes: the profile named (--profile, NOTULA_PROFILE); else, for a URL,
 * the profile already made for that server, or a new one (see newProfileName); else
 * the active profile.
 */
export async function loginTarget(
  url: string | undefined,
  flags: GlobalFlags,
): Promise<{ name: string; server: string }> {
  const { active, profiles } = await allProfiles();
  const named = flags.profile ?? environment().profile;
  const given = url
    ? serverUrl(url, "the server address")
    : flags.server
      ? serverUrl(flags.server, "--server")
      : environment().url
        ? serverUrl(environment().url!, "NOTULA_URL")
        : undefined;
  if (named) return { name: named, server: trimmed(given ?? profiles[named]?.server ?? DEFAULT_SERVER) };
  if (given) {
    const server = trimmed(given);
    const existing = Object.entries(profiles).find(([, p]) => trimmed(p.server) === server)?.[0];
    return { name: existing ?? (await newProfileName(server, profiles)), server };
  }
  return { name: active, server: trimmed(profiles[active]?.server ?? DEFAULT_SERVER) };
}

/**
 * Which profile a sign-out is about: the one for the server given, the one named, or
 * the active one. Never another: an address or name no profile has is an error.
 */
export async function logoutTarget(
  url: string | undefined,
  flags: GlobalFlags,
): Promise<{ name: string; profile: Profile | undefined }> {
  const { active, profiles } = await allProfiles();
  if (url) {
    const server = serverUrl(url, "the server address");
    const found = Object.entries(profiles).find(([, p]) => trimmed(p.server) === server);
    if (!found) throw new CliError(`No profile is for ${server}; see \`notula profiles list\`.`, EXIT.notFound);
    return { name: found[0], profile: found[1] };
  }
  const named = flags.profile ?? environment().profile;
  if (named) {
    if (!profiles[named]) throw new CliError(`No profile "${named}"; see \`notula profiles list\`.`, EXIT.notFound);
    return { name: named, profile: profiles[named] };
  }
  return { name: active, profile: profiles[active] };
}

export async function askKey(server: string): Promise<string> {
  if (!canPrompt())
    throw new CliError("No API key given: pass --with-token and send the key on standard input.", EXIT.usage);
  const p = await import("@clack/prompts");
  p.intro(`Sign in to ${server}`);
  const key = await p.password({ message: "API key (ntl_…)", validate: (v) => (v?.trim() ? undefined : "Required") });
  if (p.isCancel(key)) throw new CliError("Cancelled.", EXIT.usage);
  return String(key).trim();
}
