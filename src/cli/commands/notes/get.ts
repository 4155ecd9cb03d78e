// notula notes get <id>
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { Deps } from "../../lib/command.js";
import { info, printJson } from "../../lib/output.js";
import { openBrowser } from "../../lib/web-login.js";
import { offer } from "../../lib/command-tree.js";
import { noteUrl } from "../../../shared/note-links.js";
import { renderNote } from "./render.js";
import { noteToMarkdown } from "../../../shared/export/markdown.js";

export const define = (notes: Command) =>
  offer(
    notes
      .command("get")
      .alias("view")
      .description(
        "Show a note: summary, enhanced note, your notes and the transcript (or open it in the browser with --web)",
      )
      .argument("<id>", "note id")
      .option(
        "--format <format>",
        "text (default: wrapped to the terminal, local times) | markdown (as `export` writes it) | json",
      )
      .option("--no-pager", "never page long output (a pager is used only at a terminal)")
      .option("-w, --web", "open the note's page in the web browser instead")
      .addHelpText(
        "after",
        "\nExamples:\n  notula notes get note_abc\n  notula notes view note_abc --web\n  notula notes get note_abc --format markdown > standup.md\n  TZ=America/New_York notula notes get note_abc",
      ),
    "--format",
    ["text", "markdown", "json"],
  );

export interface Input {
  id: string;
  format?: string;
  pager: boolean;
  web?: boolean;
}

const FORMATS = ["text", "markdown", "json"];

/** --format, or json under --json, else text. */
const formatOf = (f: Input, deps: Deps) => f.format ?? (deps.json ? "json" : "text");

export function validate(f: Input) {
  if (f.format !== undefined && !FORMATS.includes(f.format))
    throw new CliError(`--format: one of text, markdown, json; got "${f.format}".`, EXIT.usage);
}

/** The note itself: --json (and --format json) print it as the API gives it. */
export async function run(f: Input, { api, server }: Deps): Promise<NoteDto> {
  validate(f);
  // Read first under --web too: a note that is not there (or not yours) is said here, not by a page.
  const { note } = await api.call("getNote", { params: { id: f.id } });
  if (f.web) {
    const url = noteUrl(server, note.id);
    info(`Opening ${url} in your browser.`);
    await openBrowser(url);
  }
  return note;
}

/** The note in its format (markdown or text, through a pager at a terminal); --json prints it as JSON. */
export async function render(note: NoteDto, f: Input, deps: Deps) {
  if (f.web) return;
  const format = formatOf(f, deps);
  if (format === "json") return printJson(note);
  const { page } = await import("../../lib/pager.js");
  const width = process.stdout.isTTY ? Math.min(process.stdout.columns || 100, 120) : undefined;
  const markdown = () => noteToMarkdown(note, { url: noteUrl(deps.server, note.id) });
  await page(format === "markdown" ? markdown() : renderNote(note, { width }), { pager: f.pager });
}
