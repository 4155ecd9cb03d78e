// notula notes update <id>
import type { Command } from "commander";
import { VisibilityInput, type NoteDto } from "../../../shared/schemas/notes.js";
import { checkFlag } from "../../lib/check-flags.js";
import { CliError, EXIT } from "../../exit.js";
import type { ApiRequest } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { collect, readInput } from "../../lib/context.js";
import { info } from "../../lib/output.js";

export const define = (notes: Command) =>
  notes
    .command("update")
    .description("Change a note's title, visibility, your notes, its summary or enhanced note, or folders")
    .argument("<id>", "note id")
    .option("--title <title>", "new title")
    .option("--visibility <v>", "only-me | workspace | public (or private | shared)")
    .option("--note-file <file>", "replace your notes: a markdown file, or - for standard input")
    .option("--summary-file <file>", "replace the summary: a markdown file, or - for standard input")
    .option("--enhanced-file <file>", "replace the enhanced note: a markdown file, or - for standard input")
    .option("--folder <id>", "the folders it is in, replacing the current ones (repeatable)", collect)
    .option("--no-folders", "take it out of every folder")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes update note_… --visibility private --note-file notes.md\n  notula notes update note_… --summary-file summary.md\n  notula notes edit note_… --part summary   (in $EDITOR)",
    );

type Body = ApiRequest<"updateNote">["body"];

export interface Input {
  id: string;
  title?: string;
  visibility?: Body["visibility"];
  noteFile?: string;
  summaryFile?: string;
  enhancedFile?: string;
  folder?: string[];
  /** false with --no-folders. */
  folders?: boolean;
}

export const validate = (f: Input) => checkFlag("--visibility", f.visibility, VisibilityInput);

export async function run(f: Input, { api }: Deps) {
  const body: Body = {};
  if (f.title) body.title = f.title;
  if (f.visibility) body.visibility = f.visibility;
  if (f.noteFile) body.userWrittenNote = await readInput(f.noteFile);
  if (f.summaryFile) body.summary = await readInput(f.summaryFile);
  if (f.enhancedFile) body.enhancedNote = await readInput(f.enhancedFile);
  if (f.folder) body.folderIds = f.folder;
  if (f.folders === false) body.folderIds = [];
  if (Object.keys(body).length === 0)
    throw new CliError(
      "Nothing to change: give --title, --visibility, --note-file, --summary-file, --enhanced-file, --folder or --no-folders.",
      EXIT.usage,
    );
  return (await api.call("updateNote", { params: { id: f.id }, body })).note;
}

export const render = (note: NoteDto) => info(`Updated ${note.id}.`);
