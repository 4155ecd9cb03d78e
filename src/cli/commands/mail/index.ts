// notula mail show|set|test|remove: the workspace's own SMTP server (admins)
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as show from "./show.js";
import * as set from "./set.js";
import * as test from "./test.js";
import * as remove from "./remove.js";

export const registerMail = (program: Command) =>
  under(
    program.command("mail").description("How the workspace's mail goes out: its own SMTP server (admins)"),
    clientDeps,
    [show, set, test, remove],
  );
