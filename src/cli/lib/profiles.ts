// Profiles: named servers, one of them active (stored with conf, no secrets in it).
import { configDir } from "./credentials.js";

export const DEFAULT_SERVER = "http://127.0.0.1:8787";

interface ProfileStore {
  active: string;
  profiles: Record<string, { server: string }>;
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

/** The server to talk to: --server, then NOTULA_URL, then the active profile. */
export async function resolveServer(flag?: string): Promise<string> {
  if (flag) return flag.replace(/\/+$/, "");
  if (process.env.NOTULA_URL) return process.env.NOTULA_URL.replace(/\/+$/, "");
  const store = await profileStore();
  return store.get("profiles")[store.get("active")]?.server ?? DEFAULT_SERVER;
}
