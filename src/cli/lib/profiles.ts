// Profiles: named servers, each with its own credential, one of them active. The
// profiles file (conf) holds no secrets: those are in the keychain (or a 0600 file)
// under the profile's own name, so two profiles never share or overwrite a key, even
// on the same server.
import fs from "node:fs/promises";
import path from "node:path";
import { CliError, EXIT } from "../exit.js";
import { configDir } from "./credentials.js";
import { environment } from "../../config/environment.js";
import { serverUrl, trimmed } from "./server-url.js";

export const DEFAULT_SERVER = "http://127.0.0.1:8787";

export interface Profile {
  server: string;
  /** How the profile last signed in: an API key (`login`, `--browser`, `--with-token`) or the browser OAuth flow (`--web`). */
  method?: "api-key" | "oauth";
  /**
   * Whether the stored API key was made by this CLI (`login --browser`): only such a key
   * is revoked on the server by `logout`. A key given to it (pasted, `--with-token`)
   * may be in use elsewhere, and is only forgotten.
   */
  minted?: boolean;
}

interface ProfileStore {
  active: string;
  profiles: Record<string, Profile>;
}

const DEFAULTS: ProfileStore = { active: "default", profiles: { default: { server: DEFAULT_SERVER } } };
const PROFILES_FILE = "profiles";

/** The profiles file, written through conf (atomically, with its defaults); loaded only by commands that change profiles. */
export async function profileStore() {
  const { default: Conf } = await import("conf");
  return new Conf<ProfileStore>({
    projectName: "notula",
    cwd: configDir(),
    configName: PROFILES_FILE,
    defaults: DEFAULTS,
  });
}

/**
 * The profiles as stored, read as the JSON conf writes. Every client command reads
 * them, and loading conf (its JSON-schema validator and semver, some hundred modules)
 * cost more than the rest of a command's start-up; writes still go through conf.
 */
async function readProfiles(): Promise<ProfileStore> {
  const file = path.join(configDir(), `${PROFILES_FILE}.json`);
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return DEFAULTS;
    throw err;
  }
  try {
    const stored = JSON.parse(text) as Partial<ProfileStore>;
    return { active: stored.active ?? DEFAULTS.active, profiles: stored.profiles ?? DEFAULTS.profiles };
  } catch {
    throw new CliError(`The profiles file ${file} is not valid JSON; fix or delete it.`, EXIT.usage);
  }
}

/** The flags every client command reads (global options). */
export interface SelectionFlags {
  profile?: string;
  server?: string;
  apiKey?: string;
}

export interface Selection {
  /** The profile in use: --profile, then NOTULA_PROFILE, then the one for --server or NOTULA_URL, then the active one. */
  name: string;
  profile: Profile | undefined;
  /** The server to talk to: --server, then NOTULA_URL, then the profile's. */
  server: string;
  /** Whether the profile's stored credential may be sent to `server` (it is that profile's server). */
  ownServer: boolean;
  /** Whether the profile was named explicitly (flag or environment). */
  named: boolean;
}

export async function selectProfile(flags: SelectionFlags): Promise<Selection> {
  const stored = await readProfiles();
  const named = flags.profile ?? environment().profile;
  const override = flags.server
    ? serverUrl(flags.server, "--server")
    : environment().url
      ? serverUrl(environment().url!, "NOTULA_URL")
      : undefined;
  // An address with no profile named is found by address: the active profile if it is
  // for that server, else the first one that is (as a browser finds a site's cookie).
  const forAddress = (url: string) =>
    [stored.active, ...Object.keys(stored.profiles)].find((n) => trimmed(stored.profiles[n]?.server ?? "") === url);
  const name = named || (override && forAddress(trimmed(override))) || stored.active;
  const profile = stored.profiles[name];
  const server = trimmed(override || profile?.server || DEFAULT_SERVER);
  return {
    name,
    profile,
    server,
    ownServer: profile !== undefined && trimmed(profile.server) === server,
    named: Boolean(named),
  };
}

/** Saves a profile (after a sign-in) and makes it the active one. */
export async function saveProfile(name: string, profile: Profile): Promise<void> {
  const store = await profileStore();
  store.set("profiles", { ...store.get("profiles"), [name]: { ...profile, server: trimmed(profile.server) } });
  store.set("active", name);
}

/**
 * Forgets a profile (its credentials are the caller's to delete). When it was the
 * active one, another for the same server that is `signedIn` takes its place, else any other.
 */
export async function removeProfile(
  name: string,
  signedIn: (other: string) => Promise<boolean> = async () => false,
): Promise<{ active: string }> {
  const store = await profileStore();
  const profiles = { ...store.get("profiles") };
  const server = trimmed(profiles[name]?.server ?? "");
  delete profiles[name];
  store.set("profiles", profiles);
  if (store.get("active") === name)
    store.set(
      "active",
      (await signedInSibling(profiles, name, server, signedIn)) ?? Object.keys(profiles)[0] ?? DEFAULTS.active,
    );
  return { active: store.get("active") };
}

/** Another profile than `name` for `server` that is `signedIn`, the first of them; else undefined. */
export async function signedInSibling(
  profiles: Record<string, Profile>,
  name: string,
  server: string,
  signedIn: (other: string) => Promise<boolean>,
): Promise<string | undefined> {
  for (const [other, p] of Object.entries(profiles))
    if (other !== name && trimmed(p.server) === trimmed(server) && (await signedIn(other))) return other;
  return undefined;
}

export async function allProfiles(): Promise<{ active: string; profiles: Record<string, Profile> }> {
  return await readProfiles();
}

export function requireProfile(sel: Selection): Profile {
  if (!sel.profile)
    throw new CliError(
      `No profile "${sel.name}"; see \`notula profiles list\`, or sign in with \`notula login URL --profile ${sel.name}\`.`,
      EXIT.notFound,
    );
  return sel.profile;
}
