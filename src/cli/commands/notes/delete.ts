// notula notes delete <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { Deps } from "../../lib/command.js";
import { confirm } from "../../lib/context.js";
import { info, shortDate } from "../../lib/output.js";

export const define = (notes: Command) =>
  examples(
    notes.command("delete").description("Delete a note").argument("<id>", "note id").option("-y, --yes", "do not ask"),
    "notula notes delete note_…",
    "notula notes delete note_… --yes   # in a script: no question asked",
  );

export interface Input {
  id: string;
  yes?: boolean;
}

export async function run(f: Input, { api }: Deps) {
  if (!f.yes) {
    // Say what will be lost, by name, before asking.
    const { note } = await api.call("getNote", { params: { id: f.id } });
    const lost = [
      note.transcripts.length ? "transcript" : "",
      note.summary ? "summary" : "",
      note.totalDurationSec ? "recording" : "",
    ].filter(Boolean);
    await confirm(
      `Delete "${note.title}" (${shortDate(note.createdAt)})?${lost.length ? ` Its ${lost.join(", ")} will be lost.` : ""} This cannot be undone.`,
      f.yes,
    );
  }
  return api.call("deleteNote", { params: { id: f.id } });
}

export const render = (_r: unknown, f: Input) => info(`Deleted ${f.id}.`);
