// notula webhooks redeliver <deliveryId>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

export const define = (hooks: Command) =>
  examples(
    hooks
      .command("redeliver")
      .argument("<deliveryId>")
      .description("Send a delivered or failed event again (its registration is enabled again if it was disabled)"),
    "notula webhooks redeliver dlv_…",
  );

export const run = (f: { deliveryId: string }, { api }: Deps) =>
  api.call("redeliverWebhook", { params: { id: f.deliveryId } });

export const render = (_r: unknown, f: { deliveryId: string }) =>
  info(`Queued ${f.deliveryId} for delivery; \`notula webhooks deliveries\` shows how it went.`);
