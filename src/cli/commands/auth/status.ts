// notula auth status
import type { Command } from "commander";
import { profileSecret } from "../../lib/credential-for.js";
import { info, printTable } from "../../lib/output.js";
import { allProfiles, selectProfile } from "../../lib/profiles.js";
import { trimmed } from "../../lib/server-url.js";
import type { AuthDeps } from "./target.js";
import { environment } from "../../../config/environment.js";
import { CliError, EXIT } from "../../exit.js";
import { jsonRequest, jsonText } from "../../lib/json-output.js";

export const define = (auth: Command) =>
  auth
    .command("status")
    .description("Show each profile's server and stored credentials, and which credential commands will use now")
    .addHelpText(
      "after",
      "\nOrder: --api-key, then NOTULA_API_KEY, then the selected profile's own credential (only to its own server).\nThe credential in use is checked on its server: exit 4 when it is refused or missing, 1 when the server cannot be reached.\n\nExample:\n  notula auth status --profile work",
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
    const signedIn = Boolean(apiKey || oauth);
    rows.push({
      name,
      server: p.server,
      active: name === active,
      selected: name === selection.name,
      signedIn,
      // How it signed in, while it is: a profile signed out has no method.
      method: signedIn ? (p.method ?? (apiKey ? "api-key" : "oauth")) : null,
      apiKey,
      oauth,
    });
  }
  const using = explicit
    ? { source: explicit, server: selection.server }
    : selection.ownServer && rows.find((r) => r.name === selection.name)?.apiKey
      ? { source: `profile "${selection.name}"`, server: selection.server }
      : { source: null, server: selection.server };
  return { items: rows, selected: selection.name, using: { ...using, ...(await check(globals, using.source)) } };
}

/**
 * What the server says of the credential commands use now, as gh checks its token: it
 * works (and whose it is), it is refused (revoked, expired, mistyped), or the server
 * cannot be reached. Nothing to check without a credential.
 */
async function check(
  globals: AuthDeps["globals"],
  source: string | null,
): Promise<{ valid: boolean | null; user?: string; problem?: string }> {
  if (!source) return { valid: false, problem: "no credential" };
  const { apiKeyFor } = await import("../../lib/credential-for.js");
  const { createApiClient } = await import("../../lib/api-client.js");
  const { timeoutsFrom } = await import("../../lib/timeout.js");
  try {
    const { key, selection } = await apiKeyFor(globals);
    const me = await createApiClient(selection.server, key, timeoutsFrom(globals).requestMs).call("getMe");
    return { valid: true, user: `${me.user.name} <${me.user.email}>, workspace ${me.workspace.name}` };
  } catch (err) {
    if (err instanceof CliError && err.code === EXIT.auth)
      return { valid: false, problem: "the server refuses it (revoked, expired or mistyped)" };
    return { valid: null, problem: err instanceof Error ? err.message : String(err) };
  }
}

/** The table (or the JSON), then a non-zero exit unless the credential in use works. */
export const ownsOutput = true;

export async function render(r: Awaited<ReturnType<typeof run>>, _f: object, { globals }: AuthDeps) {
  const { items, using } = r;
  const request = jsonRequest(globals);
  if (request) process.stdout.write(await jsonText(r, request));
  else table(items, using);
  if (using.valid === true) return;
  throw new CliError(
    using.source
      ? `The credential from ${using.source} does not work on ${using.server}: ${using.problem?.replace(/\.$/, "")}.`
      : `Not signed in to ${using.server}.`,
    using.valid === false ? EXIT.auth : EXIT.error,
  );
}

function table(profiles: Awaited<ReturnType<typeof run>>["items"], using: Awaited<ReturnType<typeof run>>["using"]) {
  printTable(
    ["", "PROFILE", "SERVER", "SIGNED IN WITH", "API KEY", "BROWSER SIGN-IN"],
    profiles.map((r) => [
      r.selected ? "*" : "",
      r.name,
      r.server,
      r.method ?? "signed out",
      r.apiKey ?? "-",
      r.oauth ?? "-",
    ]),
  );
  info(
    using.source
      ? `Commands use ${using.source} for ${using.server}${using.valid ? `: ${using.user}.` : "."}`
      : `No credential for ${using.server}: run \`notula login\` or set NOTULA_API_KEY.`,
  );
}
