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

export type Result = { notes: NoteDto[] } | { files: string[] };

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
  const ids: string[] = [];
  if (f.id) ids.push(f.id);
  else for await (const page of walk(deps, f)) ids.push(...page.map((n) => n.id));
  const read = async (id: string) => (await deps.api.call("getNote", { params: { id } })).note;
  if (f.out === "-") {
    const notes: NoteDto[] = [];
    for (const id of ids) notes.push(await read(id));
    return { notes };
  }
  fs.mkdirSync(f.out, { recursive: true });
  const files: string[] = [];
  for (const id of ids) {
    const note = await read(id);
    const json = f.format === "json";
    const file = path.join(f.out, exportFileName(note, json ? "json" : exportOf(f.format)));
    // A JSON file holds the note itself, as `notes get --json` prints it.
    fs.writeFileSync(file, json ? JSON.stringify(note, null, 2) + "\n" : written(note, f.format, deps.server));
    files.push(file);
  }
  return { files };
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
  for (const file of r.files) process.stdout.write(file + "\n");
  info(`Exported ${plural(r.files.length)} to ${f.out}.`);
}
