// notula webhooks register | list | remove | deliveries
import type { Command } from "commander";
import { apiAction, confirm } from "../lib/context.js";
import { info, printTable, shortDate, truncate } from "../lib/output.js";

export function registerWebhooks(program: Command) {
  const hooks = program.command("webhooks").description("Automation webhooks: new meetings are POSTed to these URLs");
  hooks
    .command("register")
    .description("Register a URL; prints its signing secret")
    .argument("<url>", "the automation platform's hook URL")
    .addHelpText("after", "\nExample:\n  notula webhooks register https://hooks.example.com/notula")
    .action(
      apiAction(
        (ctx, url: string) => ctx.api.call("registerWebhook", { body: { hookUrl: url } }),
        (r) => {
          process.stdout.write(`${r.secret}\n`);
          info("Registered. Verify deliveries with this secret (Standard Webhooks); keep it private.");
        },
      ),
    );
  hooks
    .command("list")
    .description("List registrations")
    .action(
      apiAction(
        (ctx) => ctx.api.call("listWebhooks"),
        (r) =>
          printTable(
            ["ID", "URL", "STATE", "FAILURES", "CREATED"],
            r.webhooks.map((w) => [
              w.id,
              w.hookUrl,
              w.disabled ? "disabled" : "active",
              String(w.consecutiveFailures),
              shortDate(w.createdAt),
            ]),
          ),
      ),
    );
  hooks
    .command("remove")
    .description("Remove a registration")
    .argument("<url>", "the registered URL")
    .option("-y, --yes", "do not ask")
    .action(
      apiAction(
        async (ctx, url: string, f) => {
          await confirm(`Stop sending events to ${url}?`, f.yes);
          return ctx.api.call("removeWebhook", { body: { hookUrl: url } });
        },
        (_r, _ctx, url) => info(`Removed ${url}.`),
      ),
    );
  hooks
    .command("deliveries")
    .description("The delivery log, newest first")
    .option("--limit <n>", "per page (default 20)")
    .option("--offset <n>", "skip")
    .action(
      apiAction(
        (ctx, f) => ctx.api.call("listWebhookDeliveries", { query: { limit: f.limit, offset: f.offset } }),
        (r) =>
          printTable(
            ["DELIVERY", "TYPE", "URL", "STATUS", "TRIES", "LAST", "CREATED"],
            r.items.map((d) => [
              d.id,
              d.type,
              truncate(d.hookUrl, 40),
              d.status,
              String(d.attempts),
              d.lastError ? truncate(d.lastError, 30) : String(d.lastStatusCode ?? ""),
              shortDate(d.createdAt),
            ]),
          ),
      ),
    );
  hooks
    .command("redeliver <deliveryId>")
    .description("Send a delivered or failed event again (its registration is enabled again if it was disabled)")
    .action(
      apiAction(
        (ctx, id: string) => ctx.api.call("redeliverWebhook", { params: { id } }),
        (_r, _ctx, id) => info(`Queued ${id} for delivery; \`notula webhooks deliveries\` shows how it went.`),
      ),
    );
}
