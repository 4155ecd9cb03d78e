// notula notes edit <id> [--part summary|enhanced|notes]: a note's text in your editor
// ($VISUAL, else $EDITOR, else vi), as git opens a commit message: the part as it is now
// in a file of its own, and what the editor leaves there saved, if it changed. Saved
// only when the note is still as it was read: an edit made meanwhile elsewhere is
// not overwritten (the command says so and keeps your text in its file).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { environment } from "../../../config/environment.js";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { CliError, EXIT } from "../../exit.js";
import type { ApiRequest } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

const PARTS = { summary: "summary", enhanced: "enhancedNote", notes: "userWrittenNote" } as const;
type Part = keyof typeof PARTS;

export const define = (notes: Command) =>
  notes
    .command("edit")
    .description("Edit a note's summary, enhanced note or your notes in $EDITOR")
    .argument("<id>", "note id")
    .option("--part <part>", "summary, enhanced or notes", "enhanced")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes edit note_…\n  EDITOR=nano notula notes edit note_… --part summary",
    );

export interface Input {
  id: string;
  part?: string;
}

export const validate = (f: Input) => {
  if (f.part !== undefined && !(f.part in PARTS))
    throw new CliError(`--part is summary, enhanced or notes, not "${f.part}".`, EXIT.usage);
};

/** Runs the editor on the file, through the shell as git does (EDITOR may carry its own arguments). */
function edit(file: string): Promise<void> {
  const env = environment();
  const editor = env.visual ?? env.editor ?? "vi";
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
    child.on("error", (e) => reject(new CliError(`Could not start the editor ${editor}: ${e.message}`, EXIT.error)));
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new CliError(`The editor ${editor} exited with ${code}: nothing was saved.`, EXIT.error)),
    );
  });
}

export async function run(f: Input, { api }: Deps): Promise<NoteDto | null> {
  const part = PARTS[(f.part ?? "enhanced") as Part];
  const before = (await api.call("getNote", { params: { id: f.id } })).note;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "notula-edit-")), `${f.id}-${f.part ?? "enhanced"}.md`);
  fs.writeFileSync(file, before[part] ?? "");
  await edit(file);
  const text = fs.readFileSync(file, "utf8");
  if (text === (before[part] ?? "")) return (info("No change: nothing saved."), null);
  // Still as it was read? Else another edit came meanwhile: not overwritten.
  const now = (await api.call("getNote", { params: { id: f.id } })).note;
  if (now[part] !== before[part])
    throw new CliError(
      `The note's ${f.part ?? "enhanced"} was changed elsewhere while you edited; yours is kept in ${file}.`,
      EXIT.error,
    );
  const body: ApiRequest<"updateNote">["body"] = { [part]: text };
  const saved = (await api.call("updateNote", { params: { id: f.id }, body })).note;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return saved;
}

export const render = (note: NoteDto | null) => (note ? info(`Saved ${note.id}.`) : undefined);
