// notula members get <id>
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import type { ApiResponse } from "../../lib/api-types.js";
import { names } from "../../lib/output.js";

export const define = (members: Command) =>
  members.command("get").description("Show a member").argument("<id>", "member id");

export const run = (f: { id: string }, { api }: Deps) => api.call("getMember", { params: { id: f.id } });

export const render = ({ member: m }: ApiResponse<"getMember">) =>
  process.stdout.write(
    `${m.name} <${m.email}>\nid       ${m.id}\nuser     ${m.userId}\nrole     ${m.role}\ngroups   ${names(m.groups) || "-"}\nfolders  ${names(m.folders) || "-"}\n`,
  );
