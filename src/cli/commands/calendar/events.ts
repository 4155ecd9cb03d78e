// notula calendar events [--from --to]
import type { Command } from "commander";
import { z } from "zod";
import type { Deps } from "../../lib/command.js";
import { checkFlag } from "../../lib/check-flags.js";
import { examples } from "../../lib/help.js";
import { listOf } from "../../lib/json-output.js";
import { printTable, shortDate } from "../../lib/output.js";

export const define = (cal: Command) =>
  examples(
    cal
      .command("events")
      .description("Your meetings from every calendar, the coming week by default")
      .option("--from <time>", "from this time (ISO 8601; default now)")
      .option("--to <time>", "to this time (ISO 8601; default a week after --from)"),
    "notula calendar events",
    "notula calendar events --from 2026-12-01T00:00:00Z --to 2026-12-08T00:00:00Z --json id,title,startsAt",
  );

const Time = z.iso.datetime({ offset: true });

export async function run(f: { from?: string; to?: string }, { api }: Deps) {
  if (f.from !== undefined) checkFlag("--from", f.from, Time);
  if (f.to !== undefined) checkFlag("--to", f.to, Time);
  return listOf("events", await api.call("listCalendarEvents", { query: { from: f.from, to: f.to } }));
}

export const render = (r: Awaited<ReturnType<typeof run>>) =>
  printTable(
    ["ID", "STARTS", "ENDS", "TITLE", "PEOPLE", "LINK"],
    r.items.map((e) => [
      e.id,
      e.allDay ? `${e.startsAt.slice(0, 10)} (all day)` : shortDate(e.startsAt),
      shortDate(e.endsAt),
      e.title,
      String(e.attendees.length),
      e.meetingUrl ?? "",
    ]),
  );
