// notula members set-groups <id> --group …
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { Member } from "../../lib/api-types.js";
import { collect } from "../../lib/context.js";
import { info, names } from "../../lib/output.js";

export const define = (members: Command) =>
  examples(
    members
      .command("set-groups")
      .description("Set a member's user groups (replaces them)")
      .argument("<id>", "member id")
      .option("--group <id>", "group id (repeatable; none clears)", collect, []),
    "notula members set-groups mem_… --group grp_sales --group grp_design",
    "notula members set-groups mem_…   # no --group: in no group",
  );

export interface Input {
  id: string;
  group: string[];
}

export const run = async (f: Input, { api }: Deps) =>
  (await api.call("updateMember", { params: { id: f.id }, body: { groupIds: f.group } })).member;

export const render = (member: Member) => info(`${member.name} is now in: ${names(member.groups) || "no group"}.`);
