// notula notifications [--note-ready on|off]
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { CliError, EXIT } from "../../exit.js";

export const define = (program: Command) =>
  examples(
    program
      .command("notifications")
      .description("The mail you get about your own notes; --note-ready on|off changes it")
      .option("--note-ready <on|off>", "mail me when a note I recorded or uploaded is ready"),
    "notula notifications",
    "notula notifications --note-ready on",
  );

export interface Input {
  noteReady?: string;
}

export async function run(f: Input, { api }: Deps) {
  if (f.noteReady === undefined) return api.call("getNotifications");
  if (f.noteReady !== "on" && f.noteReady !== "off")
    throw new CliError(`--note-ready takes on or off, not "${f.noteReady}".`, EXIT.usage);
  return api.call("updateNotifications", { body: { noteReady: f.noteReady === "on" } });
}

export const render = (r: ApiResponse<"getNotifications">) =>
  process.stdout.write(
    `note ready  ${r.notifications.noteReady ? "on" : "off"}${r.mailConfigured ? "" : "  (email is not set up for this workspace: an admin sets it up with `notula mail set`)"}\n`,
  );
