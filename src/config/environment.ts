// The environment variables the command line reads (the server's settings are in
// config/settings.ts): declared once here, with what each does, and read only through
// `environment()`, at the moment a command needs them. docs/configuration.md lists them.
import path from "node:path";
import type { Env } from "./setting.js";

export const CLI_ENVIRONMENT = {
  url: { name: "NOTULA_URL", doc: "The server client commands talk to (as --server)." },
  profile: { name: "NOTULA_PROFILE", doc: "The profile client commands use (as --profile)." },
  apiKey: {
    name: "NOTULA_API_KEY",
    doc: "An API key used instead of any stored credential: the way for CI jobs and scripts.",
  },
  timeout: {
    name: "NOTULA_TIMEOUT",
    doc: "Seconds a client command waits for each answer from the server (as --timeout; 30 unless set).",
  },
  waitTimeout: {
    name: "NOTULA_WAIT_TIMEOUT",
    doc: "Seconds --wait follows a note until it is processed (as --wait-timeout; an hour unless set).",
  },
  noKeychain: {
    name: "NOTULA_NO_KEYCHAIN",
    doc: "Set to keep credentials out of the system keychain (in a 0600 file instead).",
  },
  browser: { name: "NOTULA_BROWSER", doc: "The program `notula login --web` opens the sign-in page with." },
  workspace: {
    name: "NOTULA_WORKSPACE",
    doc: "The workspace `notula mcp` serves on a local data dir (as --workspace).",
  },
  user: { name: "NOTULA_USER", doc: "The member `notula mcp` on a local data dir reads as (as --user)." },
  configHome: { name: "XDG_CONFIG_HOME", doc: "Where the CLI keeps its profiles (…/notula); ~/.config unless set." },
  pager: { name: "PAGER", doc: "The pager long notes open in at a terminal; less -RFX unless set." },
  notulaPager: {
    name: "NOTULA_PAGER",
    doc: "The pager for notula alone, over PAGER; set to cat, or empty, to never page.",
  },
  visual: { name: "VISUAL", doc: "The editor `notula notes edit` opens a note's text in, over EDITOR." },
  editor: { name: "EDITOR", doc: "The editor `notula notes edit` opens a note's text in; vi unless set." },
  quiet: { name: "NOTULA_QUIET", doc: "Set (to anything but 0): as --quiet, no progress or status lines on stderr." },
  noColor: { name: "NO_COLOR", doc: "Present (any value): no colour in the output." },
  term: { name: "TERM", doc: "dumb: no colour in the output." },
  ci: { name: "CI", doc: "Set: never prompt, never page, never offer to set up an engine." },
} as const;

type Name = keyof typeof CLI_ENVIRONMENT;

export type Environment = { readonly [K in Name]: string | undefined } & {
  /** Whether a variable is present at all, empty or not (NO_COLOR's rule). */
  has(name: Name): boolean;
};

/** The command line's environment as it is now (tests change it between commands). */
export function environment(env: Env = process.env): Environment {
  const out = { has: (name: Name) => CLI_ENVIRONMENT[name].name in env } as Record<string, unknown>;
  for (const [key, { name }] of Object.entries(CLI_ENVIRONMENT)) out[key] = env[name] || undefined;
  return out as Environment;
}

/** The environment a child program is started with: the process's, over the defaults given. */
export const childEnvironment = (defaults: Env): Env => ({ ...defaults, ...process.env });

/** The directories programs are looked up in (PATH). */
export const programDirs = (): string[] => (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
