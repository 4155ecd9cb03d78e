// notula import PATH…: meetings from other tools, from files, folders and globs:
// WebVTT and SRT transcripts, Otter's text export, and markdown or text notes with front
// matter (shared/import). Each file becomes one note with its date, title, speakers and
// timings, summarised like a recording. The file's SHA-256 goes with it, so a run again
// skips what was imported (the server refuses a second note from one file).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { ApiError } from "../../lib/api-client.js";
import { clientDeps, under, type Deps } from "../../lib/command.js";
import { collect } from "../../lib/context.js";
import { info, printTable, truncate } from "../../lib/output.js";
import { IMPORT_EXTENSIONS, readImport, type ImportKind } from "../../../shared/import/transcript-files.js";

export const define = (program: Command) =>
  program
    .command("import")
    .description("Make notes from other tools' files: WebVTT/SRT transcripts, Otter text exports, markdown notes")
    .argument("<paths...>", "files, folders (read through) and globs (quoted: 'exports/**/*.vtt')")
    .option("--folder <id>", "file each note in this folder (repeatable)", collect)
    .option("--dry-run", "show what would be made, and make nothing")
    .addHelpText(
      "after",
      "\nA file imported before (the same bytes) is skipped: run it again after a failure.\n\nExamples:\n  notula import ~/Zoom/*.vtt\n  notula import ./otter-exports --folder fld_abc\n  notula import 'notes/**/*.md' --dry-run",
    );

export interface Input {
  paths: string[];
  folder?: string[];
  dryRun?: boolean;
}

export interface Item {
  file: string;
  status: "made" | "skipped" | "failed" | "would make";
  kind: ImportKind | null;
  title: string | null;
  noteId: string | null;
  reason: string | null;
}

const importable = (file: string) =>
  (IMPORT_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());

/** The files the paths name: a file as it is, a folder's importable files (through its folders), a glob's matches. */
async function filesOf(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (stat?.isFile()) out.push(p);
    else if (stat?.isDirectory())
      out.push(
        ...(fs.readdirSync(p, { recursive: true, encoding: "utf8" }) as string[])
          .map((f) => path.join(p, f))
          .filter((f) => importable(f) && fs.statSync(f).isFile())
          .sort(),
      );
    else if (/[*?[{]/.test(p)) {
      const { glob } = await import("tinyglobby");
      const found = (await glob(p, { onlyFiles: true })).filter(importable).sort();
      if (!found.length) throw new CliError(`Nothing matches ${p}.`, EXIT.usage);
      out.push(...found);
    } else throw new CliError(`No such file or folder: ${p}`, EXIT.usage);
  }
  return [...new Set(out.map((f) => path.resolve(f)))];
}

export async function run(f: Input, deps: Deps): Promise<{ items: Item[] }> {
  const files = await filesOf(f.paths);
  const { renderCount } = await import("../../lib/progress.js");
  const bar = renderCount(f.dryRun ? "Reading" : "Importing", files.length);
  const items: Item[] = [];
  for (const [i, file] of files.entries()) {
    const item: Item = { file, status: "failed", kind: null, title: null, noteId: null, reason: null };
    items.push(item);
    try {
      const bytes = fs.readFileSync(file);
      const read = readImport(path.basename(file), bytes.toString("utf8"), fs.statSync(file).mtime);
      item.kind = read.kind;
      item.title = read.body.title;
      if (f.dryRun) item.status = "would make";
      else {
        const sourceHash = createHash("sha256").update(bytes).digest("hex");
        const { note } = await deps.api.call("createNote", {
          body: { ...read.body, sourceHash, ...(f.folder ? { folderIds: f.folder } : {}) },
        });
        item.status = "made";
        item.noteId = note.id;
      }
    } catch (err) {
      const duplicate = err instanceof ApiError && err.status === 409;
      item.status = duplicate ? "skipped" : "failed";
      item.reason = duplicate ? err.message.replace(/^conflict: /, "") : (err as Error).message;
      // Skipped: the note the file became the first time.
      if (duplicate) item.noteId = err.noteId ?? null;
      // The server gone or the key refused: every other file would fail alike.
      const fatal =
        err instanceof CliError &&
        (!(err instanceof ApiError) || err.status === 401 || err.status === 403 || err.status >= 500);
      if (fatal) throw err;
    }
    bar.update(i + 1);
  }
  bar.done();
  return { items };
}

export function render(r: { items: Item[] }) {
  // Cut to fit a terminal; whole when piped.
  const fit = (text: string, max: number) => (process.stdout.isTTY ? truncate(text, max) : text);
  printTable(
    ["STATUS", "KIND", "FILE", "NOTE", "WHY"],
    r.items.map((x) => [
      x.status,
      x.kind ?? "-",
      fit(path.relative(process.cwd(), x.file) || x.file, 50),
      x.noteId ?? "-",
      fit(x.reason ?? "", 60),
    ]),
  );
  const count = (s: Item["status"]) => r.items.filter((x) => x.status === s).length;
  const failed = count("failed");
  info(
    count("would make")
      ? `Would make ${count("would make")} notes; ${failed} files could not be read.`
      : `Made ${count("made")}, skipped ${count("skipped")} imported before, ${failed} failed.`,
  );
}

/** Any file that failed makes the run fail (exit 1), once every other file was imported. */
export const registerImport = (program: Command) =>
  under(program, clientDeps, [
    {
      define,
      run: async (f: Input, deps: Deps) => {
        const r = await run(f, deps);
        process.exitCode = r.items.some((x) => x.status === "failed") ? EXIT.error : 0;
        return r;
      },
      render,
    },
  ]);
