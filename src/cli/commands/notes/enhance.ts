// notula notes enhance <id>
import type { Command } from "commander";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";
import { waitForNote } from "../../lib/wait.js";
import { renderNote } from "./render.js";

export const define = (notes: Command) =>
  notes
    .command("enhance")
    .description("Write the enhanced note again with a template")
    .argument("<id>", "note id")
    .option("--template <id>", "template id (default: the note's folder default, else the workspace default)")
    .option("--wait", "follow it until the new note is written")
    .addHelpText("after", "\nExample:\n  notula notes enhance note_… --template tpl_builtin_sales-call --wait");

export interface Input {
  id: string;
  template?: string;
  wait?: boolean;
}

export async function run(f: Input, deps: Deps): Promise<NoteDto> {
  const { note } = await deps.api.call("enhanceNote", {
    params: { id: f.id },
    body: f.template ? { templateId: f.template } : {},
  });
  return f.wait ? await waitForNote(deps, f.id) : note;
}

export const render = (note: NoteDto, f: Input) =>
  f.wait ? process.stdout.write(renderNote(note)) : info(`${note.id} is ${note.status}.`);
