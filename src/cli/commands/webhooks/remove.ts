// notula webhooks remove <id|url>: by the id `webhooks list` shows, or by the URL.
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (hooks: Command) =>
  hooks
    .command("remove")
    .description("Remove a registration")
    .argument("<target>", "the registration's id (as `webhooks list` shows it) or its URL")
    .option("-y, --yes", "do not ask")
    .addHelpText(
      "after",
      "\nExamples:\n  notula webhooks remove whk_… --yes\n  notula webhooks remove https://hooks.example.com/notula",
    );

export interface Input {
  target: string;
  yes?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  let url = f.target;
  if (!url.includes("://")) {
    const { webhooks } = await api.call("listWebhooks");
    const found = webhooks.find((w) => w.id === f.target);
    if (!found) throw new CliError(`No webhook ${f.target}; see \`notula webhooks list\`.`, EXIT.notFound);
    url = found.hookUrl;
  }
  await confirm(`Stop sending events to ${url}?`, f.yes);
  await api.call("removeWebhook", { body: { hookUrl: url } });
  return { removed: url };
}

export const render = (r: { removed: string }) => info(`Removed ${r.removed}.`);
