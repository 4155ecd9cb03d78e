// notula auth token: the API key commands would use now, on stdout (as gh auth token),
// for a script that calls the REST API itself.
import type { Command } from "commander";
import { apiKeyFor } from "../../lib/credential-for.js";
import type { AuthDeps } from "./target.js";

export const define = (auth: Command) =>
  auth
    .command("token")
    .description("Print the API key commands use now (the selected profile's, or --api-key / NOTULA_API_KEY)")
    .addHelpText(
      "after",
      '\nExample:\n  curl -H "Authorization: Bearer $(notula auth token)" "$(notula auth status --json | jq -r .using.server)/v1/me"',
    );

export async function run(_input: object, { globals }: AuthDeps) {
  const { key, selection } = await apiKeyFor(globals);
  return { token: key, server: selection.server };
}

export const render = (r: { token: string }) => void process.stdout.write(`${r.token}\n`);
