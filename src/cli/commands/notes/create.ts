// notula notes create
import type { Command } from "commander";
import { VisibilityInput, type NoteDto } from "../../../shared/schemas/notes.js";
import { checkFlag } from "../../lib/check-flags.js";
import type { ApiRequest } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { collect, readInput, required } from "../../lib/context.js";

export const define = (notes: Command) =>
  notes
    .command("create")
    .description("Create a note from text")
    .option("--title <title>", "title")
    .option("--note-file <file>", "your notes in markdown, from a file or - for standard input")
    .option("--visibility <v>", "only-me | workspace | public (or private | shared)")
    .option("--folder <id>", "file it in this folder (repeatable)", collect)
    .addHelpText(
      "after",
      "\nExample:\n  echo '- budget approved' | notula notes create --title 'Board call' --note-file -",
    );

type Body = ApiRequest<"createNote">["body"];

export interface Input {
  title?: string;
  noteFile?: string;
  visibility?: Body["visibility"];
  folder?: string[];
}

export const validate = (f: Input) => checkFlag("--visibility", f.visibility, VisibilityInput);

export async function run(f: Input, { api }: Deps) {
  const body: Body = { title: await required(f.title, "--title", "Title of the note") };
  if (f.noteFile) body.userWrittenNote = await readInput(f.noteFile);
  if (f.visibility) body.visibility = f.visibility;
  if (f.folder) body.folderIds = f.folder;
  return (await api.call("createNote", { body })).note;
}

export const render = (note: NoteDto) => process.stdout.write(`${note.id}\n`);
