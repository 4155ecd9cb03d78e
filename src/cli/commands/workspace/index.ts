// notula me | notula workspace | notula notifications: who you are, the workspace you are in, the mail you get
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as me from "./me.js";
import * as show from "./show.js";
import * as notifications from "./notifications.js";

export const registerWorkspace = (program: Command) => under(program, clientDeps, [me, show, notifications]);
