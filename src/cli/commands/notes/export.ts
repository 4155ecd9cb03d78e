// notula notes export [id]
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import { info, printJson } from "../../lib/output.js";
import { listOptions, walk, type ListFlags } from "./filters.js";
import { EXPORTS, exportFileName, type ExportFormat } from "../../../shared/export/index.js";
import { noteUrl } from "../../../shared/note-links.js";

export const define = (notes: Command) =>
  listOptions(
    notes
      .command("export")
      .description("Write notes to files: markdown with front matter, plain text, WebVTT or SRT subtitles, or JSON")
      .argument("[id]", "one note; without it, every note the filters match"),
  )
    .option("--out <dir>", "directory to write to, or - for standard output", ".")
    .option("--format <format>", "markdown | txt | vtt | srt | json", "markdown")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes export note_… --out ./exports\n  notula notes export note_… --format vtt --out - > meeting.vtt\n  notula notes export --folder fld_… --format json --out ./backup",
    );

export interface Input extends ListFlags {
  id?: string;
  out: string;
  format: string;
}

export type Result = { notes: NoteDto[] } | { files: string[]; unchanged: number };

/** A note as the list gives it: enough to name its file and to tell whether it changed. */
type Listed = Partial<Pick<NoteDto, "title" | "createdAt" | "updatedAt">> & { id: string };

/** The formats: markdown (or md), the export formats of one note, and the note itself as JSON. */
const FORMATS = ["markdown", "txt", "vtt", "srt", "json"];

/** The shared export table's key for a format (markdown is md there). */
const exportOf = (format: string): ExportFormat => (format === "markdown" ? "md" : (format as ExportFormat));

export function validate(f: Input) {
  if (f.format === "md") f.format = "markdown";
  if (!FORMATS.includes(f.format))
    throw new CliError(`--format: one of ${FORMATS.join(", ")}; got "${f.format}".`, EXIT.usage);
}

/** The notes, read one by one; written to files unless --out is -, where they are printed by `render`. */
export async function run(f: Input, deps: Deps): Promise<Result> {
  validate(f);
  const listed: Listed[] = [];
  if (f.id) listed.push({ id: f.id });
  else for await (const page of walk(deps, f)) listed.push(...page);
  const read = async (id: string) => (await deps.api.call("getNote", { params: { id } })).note;
  if (f.out === "-") {
    const notes: NoteDto[] = [];
    for (const { id } of listed) notes.push(await read(id));
    return { notes };
  }
  fs.mkdirSync(f.out, { recursive: true });
  const json = f.format === "json";
  const ext = json ? "json" : exportOf(f.format);
  const files: string[] = [];
  let unchanged = 0;
  for (const item of listed) {
    // Run again after it stopped (a limit, a cut), an export goes on where it was: a
    // file written since its note last changed is kept without reading the note again.
    if (item.title !== undefined && item.createdAt !== undefined && item.updatedAt !== undefined) {
      const file = path.join(f.out, exportFileName(item as Required<Listed>, ext));
      if (fs.existsSync(file) && fs.statSync(file).mtimeMs >= Date.parse(item.updatedAt)) {
        files.push(file);
        unchanged++;
        continue;
      }
    }
    const note = await read(item.id);
    const file = path.join(f.out, exportFileName(note, ext));
    // A JSON file holds the note itself, as `notes get --json` prints it.
    fs.writeFileSync(file, json ? JSON.stringify(note, null, 2) + "\n" : written(note, f.format, deps.server));
    files.push(file);
    // One line per file as it is written: a run that stops has said what it wrote.
    if (!deps.json) process.stdout.write(file + "\n");
  }
  return { files, unchanged };
}

/** A note in one of the export formats, with its address on the server it came from. */
const written = (note: NoteDto, format: string, server: string) =>
  EXPORTS[exportOf(format)].write(note, noteUrl(server, note.id));

/** Standard output gets the notes themselves (one after another, or one JSON document), or the files written. */
export const ownsOutput = true;

export function render(r: Result, f: Input, deps: Deps) {
  const plural = (n: number) => `${n} note${n === 1 ? "" : "s"}`;
  if ("notes" in r) {
    if (f.format === "json") printJson({ items: r.notes });
    else r.notes.forEach((note, i) => process.stdout.write((i ? "\n" : "") + written(note, f.format, deps.server)));
    return info(`Exported ${plural(r.notes.length)}.`);
  }
  if (deps.json) return printJson({ items: r.files });
  const kept = r.unchanged ? ` (${r.unchanged} unchanged since they were written, kept)` : "";
  info(`Exported ${plural(r.files.length)} to ${f.out}${kept}.`);
}
