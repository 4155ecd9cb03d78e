// notula import PATH…: meetings from other tools, from files, folders and globs:
// WebVTT and SRT transcripts, Otter's text export, and markdown or text notes with front
// matter (shared/import). Each file becomes one note with its date, title, speakers and
// timings, summarised like a recording; a recording beside a transcript, of the same
// name (meeting.m4a and meeting.vtt), is uploaded and attached to its note for playback.
// The transcript's SHA-256 goes with it, so a run again skips what was imported (the
// server refuses a second note from one file).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { ApiError } from "../../lib/api-client.js";
import { clientDeps, under, type Deps } from "../../lib/command.js";
import { collect } from "../../lib/context.js";
import { info, printTable, truncate } from "../../lib/output.js";
import { readImport, type ImportKind } from "../../../shared/import/transcript-files.js";
import { decodeText, refuseOversize } from "../../../shared/import/decode.js";
import { entriesOf, filesOf } from "./files.js";
import { foldersFor, isArchive, noteBody, unpack } from "./archive.js";
import { durationOf, put } from "../upload/transfer.js";

export const define = (program: Command) =>
  program
    .command("import")
    .description(
      "Make notes from other tools' files (WebVTT/SRT transcripts with the recording beside them, Otter text exports, markdown notes) or a workspace archive",
    )
    .argument(
      "<paths...>",
      "files, folders (read through), globs (quoted: 'exports/**/*.vtt') and archives of `notula archive` (.tar.gz)",
    )
    .option("--folder <id>", "file each note in this folder (repeatable)", collect)
    .option("--dry-run", "show what would be made, and make nothing")
    .addHelpText(
      "after",
      "\nA file imported before (the same bytes) is skipped: run it again after a failure. A recording\nbeside a transcript of the same name (standup.m4a and standup.vtt) is attached to its note.\n\nExamples:\n  notula import ~/Zoom/*.vtt\n  notula import standup.m4a standup.vtt\n  notula import notula-archive-2026-11-28.tar.gz\n  notula import ./otter-exports --folder fld_abc\n  notula import 'notes/**/*.md' --dry-run",
    );

export interface Input {
  paths: string[];
  folder?: string[];
  dryRun?: boolean;
}

export interface Item {
  file: string;
  /** The recording attached to the note, when one lies beside the transcript. */
  recording: string | null;
  status: "made" | "skipped" | "failed" | "would make";
  kind: ImportKind | "archive" | null;
  title: string | null;
  noteId: string | null;
  reason: string | null;
}

export async function run(f: Input, deps: Deps): Promise<{ items: Item[] }> {
  const entries = entriesOf(await filesOf(f.paths));
  const { renderCount } = await import("../../lib/progress.js");
  const bar = renderCount(f.dryRun ? "Reading" : "Importing", entries.length);
  const items: Item[] = [];
  for (const [i, { file, recording, error }] of entries.entries()) {
    if (isArchive(file)) {
      items.push(...(await importArchive(file, f, deps)));
      bar.update(i + 1);
      continue;
    }
    const item: Item = { file, recording, status: "failed", kind: null, title: null, noteId: null, reason: null };
    items.push(item);
    try {
      if (error) throw new Error(error);
      const stat = fs.statSync(file);
      // The size is checked before the file is read: a 2 GB file named .vtt is refused, not loaded.
      refuseOversize(path.basename(file), stat.size);
      const bytes = fs.readFileSync(file);
      const read = readImport(path.basename(file), decodeText(path.basename(file), bytes), stat.mtime);
      item.kind = read.kind;
      item.title = read.body.title;
      if (f.dryRun) item.status = "would make";
      else {
        const sourceHash = createHash("sha256").update(bytes).digest("hex");
        const audioUrl = recording ? await uploadRecording(deps, recording) : undefined;
        const { note } = await deps.api.call("createNote", {
          body: { ...read.body, sourceHash, audioUrl, ...(f.folder ? { folderIds: f.folder } : {}) },
        });
        item.status = "made";
        item.noteId = note.id;
      }
    } catch (err) {
      settle(item, err);
    }
    bar.update(i + 1);
  }
  bar.done();
  return { items };
}

/**
 * What became of a file that did not make a note: skipped (made before: the note it
 * became) or failed. The server gone or the key refused ends the run: every other file
 * would fail alike.
 */
function settle(item: Item, err: unknown) {
  const duplicate = err instanceof ApiError && err.status === 409;
  item.status = duplicate ? "skipped" : "failed";
  item.reason = duplicate ? err.message.replace(/^conflict: /, "") : (err as Error).message;
  if (duplicate) item.noteId = err.noteId ?? null;
  const fatal =
    err instanceof CliError &&
    (!(err instanceof ApiError) || err.status === 401 || err.status === 403 || err.status >= 500);
  if (fatal) throw err;
}

/** A workspace archive: a note made of each of its notes, in its folders, with its recording. */
async function importArchive(file: string, f: Input, deps: Deps): Promise<Item[]> {
  const blank = { file, recording: null, kind: "archive" as const, title: null, noteId: null, reason: null };
  let unpacked;
  try {
    unpacked = await unpack(file);
  } catch (err) {
    return [{ ...blank, status: "failed", reason: (err as Error).message }];
  }
  try {
    const folders = await foldersFor(deps, unpacked.manifest, Boolean(f.dryRun));
    const items: Item[] = [];
    for (const { id } of unpacked.manifest.notes) {
      const bytes = unpacked.notes.get(id);
      const recording = unpacked.audio.get(id) ?? null;
      const item: Item = { ...blank, recording: recording && path.basename(recording), status: "failed" };
      items.push(item);
      try {
        if (!bytes) throw new Error(`${path.basename(file)} lists note ${id} but does not hold it.`);
        const body = noteBody(bytes, folders);
        item.title = body.title;
        if (f.dryRun) item.status = "would make";
        else {
          const audioUrl = recording ? await uploadRecording(deps, recording) : undefined;
          const extra = f.folder ? [...(body.folderIds ?? []), ...f.folder] : body.folderIds;
          item.noteId = (await deps.api.call("createNote", { body: { ...body, folderIds: extra, audioUrl } })).note.id;
          item.status = "made";
        }
      } catch (err) {
        settle(item, err);
      }
    }
    return items;
  } finally {
    fs.rmSync(unpacked.dir, { recursive: true, force: true });
  }
}

/**
 * Sends a recording as `notula upload` does, for the note made with its transcript; its
 * audioUrl. A recording that cannot be measured or is refused fails its own file alone.
 */
async function uploadRecording(deps: Deps, file: string): Promise<string> {
  const alone = (err: unknown) => {
    throw err instanceof ApiError || !(err instanceof CliError) ? err : new Error(err.message);
  };
  const duration = await durationOf(file).catch(alone);
  const url = await deps.api.call("generateUploadUrl", {
    body: { fileExtension: path.extname(file).slice(1).toLowerCase(), duration: Math.ceil(duration) },
  });
  await put(url.presignedUrl, file, url.contentType, fs.statSync(file).size).catch(alone);
  return url.audioUrl;
}

export function render(r: { items: Item[] }) {
  // Cut to fit a terminal; whole when piped.
  const fit = (text: string, max: number) => (process.stdout.isTTY ? truncate(text, max) : text);
  printTable(
    ["STATUS", "KIND", "FILE", "NOTE", "WHY"],
    r.items.map((x) => [
      x.status,
      (x.kind ?? "-") + (x.recording ? `+${path.extname(x.recording).slice(1)}` : ""),
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
