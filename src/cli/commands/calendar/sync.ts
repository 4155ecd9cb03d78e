// notula calendar sync <id>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import { examples } from "../../lib/help.js";
import { info } from "../../lib/output.js";
import { renderCalendar } from "./show.js";

export const define = (cal: Command) =>
  examples(
    cal
      .command("sync")
      .description("Read a calendar now (it is read every few minutes anyway)")
      .argument("<id>", "the calendar's id"),
    "notula calendar sync cal_…",
  );

export async function run(f: { id: string }, { api }: Deps) {
  return (await api.call("syncCalendar", { params: { id: f.id } })).calendar;
}

export function render(c: Awaited<ReturnType<typeof run>>) {
  renderCalendar(c);
  // A failed sync is a failure of the command: scripts see it in the exit status.
  if (c.lastError) throw new CliError(`The sync of ${c.name} failed.`, EXIT.error);
  info(`${c.name}: ${c.eventCount} meetings.`);
}
