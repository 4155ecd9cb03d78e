// notula calendar add|list|remove|sync|events
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as add from "./add.js";
import * as events from "./events.js";
import * as list from "./list.js";
import * as remove from "./remove.js";
import * as sync from "./sync.js";

export const registerCalendar = (program: Command) =>
  under(
    program.command("calendar").description("Your calendars (ICS or CalDAV): who was at a meeting, and what comes up"),
    clientDeps,
    [add, list, remove, sync, events],
  );
