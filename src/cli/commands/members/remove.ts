// notula members remove <id>
import type { Command } from "commander";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { examples } from "../../lib/help.js";
import { info } from "../../lib/output.js";

export const define = (members: Command) =>
  examples(
    members
      .command("remove")
      .description("Remove a member from the workspace (admins): their keys are revoked and their sessions end")
      .argument("<id>", "member id")
      .option("-y, --yes", "do not ask"),
    "notula members remove mem_…",
    "notula members remove mem_… --yes",
  );

export interface Input {
  id: string;
  yes?: boolean;
}

/** Asks first, naming who goes: removing a member ends their access at once. */
export async function run(f: Input, { api }: Deps) {
  const { member } = await api.call("getMember", { params: { id: f.id } });
  await confirm(
    `Remove ${member.name} <${member.email}> from the workspace? Their API keys are revoked and their sessions end.`,
    f.yes,
  );
  await api.call("removeMember", { params: { id: f.id } });
  return { id: member.id, name: member.name, email: member.email, removed: true };
}

export const render = (r: Awaited<ReturnType<typeof run>>) => info(`Removed ${r.name} <${r.email}>.`);
