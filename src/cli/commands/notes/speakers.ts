// notula notes speakers <id> [rename LABEL NAME]
import type { Command } from "commander";
import { listOf, type ListResult } from "../../lib/json-output.js";
import { CliError, EXIT } from "../../exit.js";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { printTable } from "../../lib/output.js";

export const define = (notes: Command) =>
  notes
    .command("speakers")
    .description("List a note's speakers with their talk time, or name one: speakers ID rename LABEL NAME")
    .argument("<id>", "note id")
    .argument("[action]", "rename")
    .argument("[label]", "the speaker label to name")
    .argument("[name...]", "the name to give it")
    .option("--email <email>", "name it after this participant or member")
    .option("--clear", "give the label back")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes speakers note_…\n  notula notes speakers note_… rename SPEAKER_00 Ana Silva\n  notula notes speakers note_… rename A --email ana@example.com",
    );

export interface Input {
  id: string;
  action?: string;
  label?: string;
  name?: string[];
  email?: string;
  clear?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  if (f.action === undefined) return listOf("speakers", await api.call("listSpeakers", { params: { id: f.id } }));
  if (f.action !== "rename") throw new CliError(`Unknown action "${f.action}": the only one is rename.`, EXIT.usage);
  if (!f.label) throw new CliError("Name the speaker label to rename: speakers ID rename LABEL NAME.", EXIT.usage);
  const given = (f.name ?? []).join(" ").trim();
  if (!given && !f.email && !f.clear) throw new CliError("Give a name, --email or --clear.", EXIT.usage);
  const renamed = await api.call("renameSpeaker", {
    params: { id: f.id },
    body: {
      label: f.label,
      ...(f.clear ? { name: null } : given ? { name: given } : {}),
      ...(f.email ? { email: f.email } : {}),
    },
  });
  return listOf("speakers", renamed);
}

export const render = ({ items: speakers }: ListResult<ApiResponse<"listSpeakers">["speakers"][number]>) =>
  printTable(
    ["LABEL", "NAME", "EMAIL", "TALK TIME", "SEGMENTS"],
    speakers.map((s) => [
      s.label,
      s.name,
      s.email ?? "",
      `${Math.floor(s.talkTimeSec / 60)}:${String(s.talkTimeSec % 60).padStart(2, "0")}`,
      String(s.segments),
    ]),
  );
