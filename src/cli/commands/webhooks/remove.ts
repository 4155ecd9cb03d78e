// notula webhooks remove <url>
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (hooks: Command) =>
  hooks
    .command("remove")
    .description("Remove a registration")
    .argument("<url>", "the registered URL")
    .option("-y, --yes", "do not ask");

export interface Input {
  url: string;
  yes?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  await confirm(`Stop sending events to ${f.url}?`, f.yes);
  return api.call("removeWebhook", { body: { hookUrl: f.url } });
}

export const render = (_r: unknown, f: Input) => info(`Removed ${f.url}.`);
