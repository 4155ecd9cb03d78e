// notula notes reprocess <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

export const define = (notes: Command) =>
  examples(
    notes
      .command("reprocess")
      .description("Transcribe and summarize a note again")
      .argument("<id>", "note id")
      .option("--discard-corrections", "transcribe the recording anew even though lines were corrected by hand"),
    "notula notes reprocess note_… && notula notes get note_…",
  );

export const run = async (f: { id: string; discardCorrections?: boolean }, { api }: Deps) =>
  (
    await api.call("reprocessNote", {
      params: { id: f.id },
      query: f.discardCorrections ? { discardCorrections: "true" } : {},
    })
  ).note;

export const render = (note: NoteDto) => info(`${note.id} is ${note.status}.`);
