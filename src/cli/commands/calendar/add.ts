// notula calendar add <url> [--caldav --username U --password-stdin]
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { CliError, EXIT } from "../../exit.js";
import { canPrompt, readInput } from "../../lib/context.js";
import { info } from "../../lib/output.js";
import { renderCalendar } from "./show.js";

export const define = (cal: Command) =>
  cal
    .command("add")
    .description("Connect a calendar: its secret ICS address, or a CalDAV account with --caldav")
    .argument("<url>", "the ICS address (https or webcal), or the CalDAV server's or calendar's address")
    .option("--caldav", "a CalDAV server (Nextcloud, Radicale, Fastmail, iCloud): give --username and a password")
    .option("--username <name>", "the CalDAV user name")
    .option("--password-stdin", "read the CalDAV password (an app password) from standard input")
    .addHelpText(
      "after",
      "\nExamples:\n  notula calendar add 'https://calendar.google.com/calendar/ical/…/basic.ics'\n  printf '%s' \"$APP_PASSWORD\" | notula calendar add https://cloud.example.com/remote.php/dav --caldav --username ana --password-stdin",
    );

export interface Input {
  url: string;
  caldav?: boolean;
  username?: string;
  passwordStdin?: boolean;
}

/** The password: from standard input, or asked at a terminal (never on the command line, where ps shows it). */
async function password(f: Input): Promise<string | undefined> {
  if (!f.caldav) return undefined;
  if (f.passwordStdin) return (await readInput("-")).replace(/\r?\n$/, "");
  if (!canPrompt()) throw new CliError("A CalDAV calendar needs its password: pass --password-stdin.", EXIT.usage);
  const p = await import("@clack/prompts");
  const answer = await p.password({ message: `Password for ${f.username ?? "the account"}` });
  if (p.isCancel(answer)) throw new CliError("Cancelled.", EXIT.usage);
  return String(answer);
}

export async function run(f: Input, { api }: Deps) {
  if (!f.caldav && (f.username || f.passwordStdin))
    throw new CliError(
      "--username and --password-stdin are for --caldav; an ICS address carries its own secret.",
      EXIT.usage,
    );
  if (f.caldav && !f.username) throw new CliError("--caldav needs --username.", EXIT.usage);
  const body = f.caldav
    ? { kind: "caldav" as const, url: f.url, username: f.username, password: await password(f) }
    : { kind: "ics" as const, url: f.url };
  return (await api.call("addCalendar", { body })).calendar;
}

export function render(c: Awaited<ReturnType<typeof run>>) {
  process.stdout.write(`${c.id}\n`);
  renderCalendar(c);
  if (!c.lastError) info(`Connected ${c.name}: ${c.eventCount} meetings read; it is read again every few minutes.`);
}
