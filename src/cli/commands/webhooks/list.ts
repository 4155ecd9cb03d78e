// notula webhooks list
import type { Command } from "commander";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { printTable, shortDate } from "../../lib/output.js";

export const define = (hooks: Command) => hooks.command("list").description("List registrations");

export const run = (_input: object, { api }: Deps) => api.call("listWebhooks");

export const render = (r: ApiResponse<"listWebhooks">) =>
  printTable(
    ["ID", "URL", "STATE", "FAILURES", "CREATED"],
    r.webhooks.map((w) => [
      w.id,
      w.hookUrl,
      w.disabled ? "disabled" : "active",
      String(w.consecutiveFailures),
      shortDate(w.createdAt),
    ]),
  );
