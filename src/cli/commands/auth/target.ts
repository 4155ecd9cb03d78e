// Which profile and server a sign-in or sign-out is about, and asking for a key.
import { CliError, EXIT } from "../../exit.js";
import { canPrompt } from "../../lib/context.js";
import { allProfiles, DEFAULT_SERVER } from "../../lib/profiles.js";
import type { GlobalDeps, GlobalFlags } from "../../lib/command.js";
import { environment } from "../../../config/environment.js";

/** The credential commands read the global flags (profiles and keys live in the user's config). */
export type AuthDeps = GlobalDeps;

export const trimmed = (url: string) => url.replace(/\/+$/, "");

/**
 * Where a sign-in goes: the profile named (--profile, NOTULA_PROFILE); else, for a URL,
 * the profile already made for that server, or "default"; else the active profile.
 */
export async function loginTarget(
  url: string | undefined,
  flags: GlobalFlags,
): Promise<{ name: string; server: string }> {
  const { active, profiles } = await allProfiles();
  const named = flags.profile ?? environment().profile;
  const given = url ?? flags.server ?? environment().url;
  if (named) return { name: named, server: trimmed(given ?? profiles[named]?.server ?? DEFAULT_SERVER) };
  if (given) {
    const server = trimmed(given);
    const existing = Object.entries(profiles).find(([, p]) => trimmed(p.server) === server)?.[0];
    return { name: existing ?? "default", server };
  }
  return { name: active, server: trimmed(profiles[active]?.server ?? DEFAULT_SERVER) };
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
