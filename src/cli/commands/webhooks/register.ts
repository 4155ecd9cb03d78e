// notula webhooks register <url>
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

export const define = (hooks: Command) =>
  hooks
    .command("register")
    .description("Register a URL; prints its signing secret")
    .argument("<url>", "the automation platform's hook URL")
    .addHelpText("after", "\nExample:\n  notula webhooks register https://hooks.example.com/notula");

/** The registration: its id, its URL and the secret that signs what it is sent. */
export async function run(f: { url: string }, { api }: Deps) {
  const { id, secret } = await api.call("registerWebhook", { body: { hookUrl: f.url } });
  return { id, hookUrl: f.url, secret };
}

/** The id, as every create prints it; then the secret, which scripts need as much, on its own line. */
export function render(r: Awaited<ReturnType<typeof run>>) {
  process.stdout.write(`${r.id}\n${r.secret}\n`);
  info("Registered: its id, then the secret that signs deliveries (Standard Webhooks); keep the secret private.");
}
