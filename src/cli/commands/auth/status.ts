// notula auth status
import type { Command } from "commander";
import { profileSecret } from "../../lib/credential-for.js";
import { info, printTable } from "../../lib/output.js";
import { allProfiles, selectProfile } from "../../lib/profiles.js";
import { trimmed, type AuthDeps } from "./target.js";
import { environment } from "../../../config/environment.js";

export const define = (auth: Command) =>
  auth
    .command("status")
    .description("Show each profile's server and stored credentials, and which credential commands will use now")
    .addHelpText(
      "after",
      "\nOrder: --api-key, then NOTULA_API_KEY, then the selected profile's own credential (only to its own server).\n\nExample:\n  notula auth status --profile work",
    );

/** How a stored secret reads: where it is kept, or null. */
const describeSecret = async (name: string, server: string, kind: "key" | "oauth") =>
  (await profileSecret(name, server, kind))?.from ?? null;

export async function run(_input: object, { globals }: AuthDeps) {
  const { active, profiles } = await allProfiles();
  const selection = await selectProfile(globals);
  const explicit = globals.apiKey ? "--api-key" : environment().apiKey ? "NOTULA_API_KEY" : null;
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
  return { profiles: rows, selected: selection.name, using };
}

export function render({ profiles, using }: Awaited<ReturnType<typeof run>>) {
  printTable(
    ["", "PROFILE", "SERVER", "SIGNED IN WITH", "API KEY", "BROWSER SIGN-IN"],
    profiles.map((r) => [r.selected ? "*" : "", r.name, r.server, r.method ?? "-", r.apiKey ?? "-", r.oauth ?? "-"]),
  );
  info(
    using.source
      ? `Commands use ${using.source} for ${using.server}.`
      : `No credential for ${using.server}: run \`notula login\` or set NOTULA_API_KEY.`,
  );
}
