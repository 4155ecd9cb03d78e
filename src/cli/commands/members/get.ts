// notula members get <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import type { Member } from "../../lib/api-types.js";
import { names } from "../../lib/output.js";

export const define = (members: Command) =>
  examples(
    members.command("get").description("Show a member").argument("<id>", "member id"),
    "notula members get mem_…",
  );

export const run = async (f: { id: string }, { api }: Deps) =>
  (await api.call("getMember", { params: { id: f.id } })).member;

export const render = (m: Member) =>
  process.stdout.write(
    `${m.name} <${m.email}>\nid       ${m.id}\nuser     ${m.userId}\nrole     ${m.role}\ngroups   ${names(m.groups) || "-"}\nfolders  ${names(m.folders) || "-"}\n`,
  );
