// notula webhooks register <url>
import type { Command } from "commander";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

export const define = (hooks: Command) =>
  hooks
    .command("register")
    .description("Register a URL; prints its signing secret")
    .argument("<url>", "the automation platform's hook URL")
    .addHelpText("after", "\nExample:\n  notula webhooks register https://hooks.example.com/notula");

export const run = (f: { url: string }, { api }: Deps) => api.call("registerWebhook", { body: { hookUrl: f.url } });

export function render(r: ApiResponse<"registerWebhook">) {
  process.stdout.write(`${r.secret}\n`);
  info("Registered. Verify deliveries with this secret (Standard Webhooks); keep it private.");
}
