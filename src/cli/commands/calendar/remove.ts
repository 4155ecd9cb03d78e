// notula calendar remove <id>
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (cal: Command) =>
  cal
    .command("remove")
    .description("Disconnect a calendar (notes keep the meetings they were made of)")
    .argument("<id>", "the calendar's id, as `calendar list` shows it")
    .option("-y, --yes", "do not ask")
    .addHelpText("after", "\nExample:\n  notula calendar remove cal_… --yes");

export async function run(f: { id: string; yes?: boolean }, { api }: Deps) {
  await confirm(`Disconnect calendar ${f.id}?`, f.yes);
  await api.call("removeCalendar", { params: { id: f.id } });
  return { removed: f.id };
}

export const render = (r: { removed: string }) => info(`Disconnected ${r.removed}.`);
