// notula notes reprocess <id>
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

export const define = (notes: Command) =>
  examples(
    notes.command("reprocess").description("Transcribe and summarize a note again").argument("<id>", "note id"),
    "notula notes reprocess note_… && notula notes get note_…",
  );

export const run = async (f: { id: string }, { api }: Deps) =>
  (await api.call("reprocessNote", { params: { id: f.id } })).note;

export const render = (note: NoteDto) => info(`${note.id} is ${note.status}.`);
