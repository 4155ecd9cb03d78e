// notula members set-groups <id> --group …
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { collect } from "../../lib/context.js";
import { info, names } from "../../lib/output.js";

export const define = (members: Command) =>
  members
    .command("set-groups")
    .description("Set a member's user groups (replaces them)")
    .argument("<id>", "member id")
    .option("--group <id>", "group id (repeatable; none clears)", collect, []);

export interface Input {
  id: string;
  group: string[];
}

export const run = (f: Input, { api }: Deps) =>
  api.call("updateMember", { params: { id: f.id }, body: { groupIds: f.group } });

export const render = (r: ApiResponse<"updateMember">) =>
  info(`${r.member.name} is now in: ${names(r.member.groups) || "no group"}.`);
