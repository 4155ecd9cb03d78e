// notula calendar list
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import type { Deps } from "../../lib/command.js";
import { printTable, shortDate } from "../../lib/output.js";

export const define = (cal: Command) =>
  examples(cal.command("list").description("Your calendars, their last sync and error"), "notula calendar list");

export const run = async (_input: object, { api }: Deps) => listOf("calendars", await api.call("listCalendars"));

export const render = (r: Awaited<ReturnType<typeof run>>) =>
  printTable(
    ["ID", "NAME", "KIND", "MEETINGS", "LAST SYNC", "ERROR"],
    r.items.map((c) => [c.id, c.name, c.kind, String(c.eventCount), shortDate(c.lastSyncAt), c.lastError ?? ""]),
  );
