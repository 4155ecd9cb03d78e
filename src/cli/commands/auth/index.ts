// notula login | logout | auth status
import type { Command } from "commander";
import { globalDeps, under } from "../../lib/command.js";
import * as login from "./login.js";
import * as logout from "./logout.js";
import * as status from "./status.js";

export function registerAuth(program: Command) {
  under(program, globalDeps, [login, logout]);
  under(program.command("auth").description("Credentials"), globalDeps, [status]);
}
