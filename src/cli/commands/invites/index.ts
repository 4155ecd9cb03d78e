// notula invites list|create|delete
import type { Command } from "commander";
import { clientDeps, under } from "../../lib/command.js";
import * as create from "./create.js";
import * as del from "./delete.js";
import * as list from "./list.js";

export const registerInvites = (program: Command) =>
  under(program.command("invites").description("Workspace invites"), clientDeps, [list, create, del]);
