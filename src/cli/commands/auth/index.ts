// notula auth login|logout|status|switch|token, with login and logout at the top level too (as before, and as people type them)
import type { Command } from "commander";
import { globalDeps, under } from "../../lib/command.js";
import * as login from "./login.js";
import * as logout from "./logout.js";
import * as status from "./status.js";
import * as authSwitch from "./switch.js";
import * as token from "./token.js";

export function registerAuth(program: Command) {
  under(program, globalDeps, [login, logout]);
  under(program.command("auth").description("Credentials: sign in and out, see and print them"), globalDeps, [
    login,
    logout,
    status,
    authSwitch,
    token,
  ]);
}
