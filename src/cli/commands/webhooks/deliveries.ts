// notula webhooks deliveries
import type { Command } from "commander";
import { checkPage } from "../../lib/check-flags.js";
import { examples } from "../../lib/help.js";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { pageOptions, printTable, shortDate, truncate, type PageFlags } from "../../lib/output.js";

export const define = (hooks: Command) =>
  examples(
    pageOptions(hooks.command("deliveries").description("The delivery log, newest first")),
    "notula webhooks deliveries --limit 50",
    `notula webhooks deliveries --json --jq '.items[] | select(.status == "failed") | .id'`,
  );

export const validate = (f: PageFlags) => checkPage(f);

export const run = (f: PageFlags, { api }: Deps) =>
  api.call("listWebhookDeliveries", { query: { limit: f.limit, offset: f.offset } });

export const render = (r: ApiResponse<"listWebhookDeliveries">) =>
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
  );
