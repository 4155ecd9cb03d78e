// notula notes share <id>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";

export const define = (notes: Command) =>
  notes
    .command("share")
    .description("Print a note's share link: anyone with it can read the note, signed out")
    .argument("<id>", "note id")
    .option("--make-public", "make the note public first (a link exists only while it is)")
    .addHelpText("after", "\nExample:\n  notula notes share note_… --make-public");

export interface Input {
  id: string;
  makePublic?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  const { note } = f.makePublic
    ? await api.call("updateNote", { params: { id: f.id }, body: { visibility: "public" } })
    : await api.call("getNote", { params: { id: f.id } });
  if (!note.shareUrl)
    throw new CliError(
      `Note ${f.id} is not public, so it has no share link; run again with --make-public.`,
      EXIT.usage,
    );
  return { id: note.id, shareUrl: note.shareUrl };
}

export const render = (r: { shareUrl: string }) => process.stdout.write(`${r.shareUrl}\n`);
