// Profiles: named servers, each with its own credential, one of them active. The
// profiles file (conf) holds no secrets: those are in the keychain (or a 0600 file)
// under the profile's own name, so two profiles never share or overwrite a key, even
// on the same server.
import { CliError, EXIT } from "../exit.js";
import { configDir } from "./credentials.js";

export const DEFAULT_SERVER = "http://127.0.0.1:8787";

export interface Profile {
  server: string;
  /** How the profile last signed in: an API key (`login`, `--browser`, `--with-token`) or the browser OAuth flow (`--web`). */
  method?: "api-key" | "oauth";
}

interface ProfileStore {
  active: string;
  profiles: Record<string, Profile>;
}

/** conf (and its JSON-schema validator) is loaded only by commands that need profiles. */
export async function profileStore() {
  const { default: Conf } = await import("conf");
  return new Conf<ProfileStore>({
    projectName: "notula",
    cwd: configDir(),
    configName: "profiles",
    defaults: { active: "default", profiles: { default: { server: DEFAULT_SERVER } } },
  });
}

const trimmed = (url: string) => url.replace(/\/+$/, "");

/** The flags every client command reads (global options). */
export interface SelectionFlags {
  profile?: string;
  server?: string;
  apiKey?: string;
}

export interface Selection {
  /** The profile in use: --profile, then NOTULA_PROFILE, then the active one. */
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
  const store = await profileStore();
  const named = flags.profile ?? process.env.NOTULA_PROFILE ?? undefined;
  const name = named || store.get("active");
  const profile = store.get("profiles")[name];
  const override = flags.server ?? process.env.NOTULA_URL ?? undefined;
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

export async function allProfiles(): Promise<{ active: string; profiles: Record<string, Profile> }> {
  const store = await profileStore();
  return { active: store.get("active"), profiles: store.get("profiles") };
}

export function requireProfile(sel: Selection): Profile {
  if (!sel.profile)
    throw new CliError(
      `No profile "${sel.name}"; see \`notula profiles list\`, or sign in with \`notula login URL --profile ${sel.name}\`.`,
      EXIT.notFound,
    );
  return sel.profile;
}
