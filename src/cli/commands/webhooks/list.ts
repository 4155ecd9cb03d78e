// notula webhooks list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import type { Deps } from "../../lib/command.js";
import { printTable, shortDate } from "../../lib/output.js";

export const define = (hooks: Command) =>
  examples(hooks.command("list").description("List registrations"), "notula webhooks list");

export const run = async (_input: object, { api }: Deps) => listOf("webhooks", await api.call("listWebhooks"));

export const render = (r: Awaited<ReturnType<typeof run>>) =>
  printTable(
    ["ID", "URL", "STATE", "FAILURES", "CREATED"],
    r.items.map((w) => [
      w.id,
      w.hookUrl,
      w.disabled ? "disabled" : "active",
      String(w.consecutiveFailures),
      shortDate(w.createdAt),
    ]),
  );
