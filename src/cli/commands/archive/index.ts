// notula archive: the workspace as one file (admins), which `notula import` on another
// server takes back in whole: folders, notes with their transcripts, and recordings.
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import type { Command } from "commander";
import { clientDeps, under, type Deps } from "../../lib/command.js";
import { examples } from "../../lib/help.js";
import { info } from "../../lib/output.js";

export const define = (program: Command) =>
  examples(
    program
      .command("archive")
      .description("Download the workspace as one archive (admins): folders, notes and recordings, for notula import")
      .option("--out <file>", "where to write it (default: notula-archive-DATE.tar.gz here)"),
    "notula archive --out ~/backups/acme.tar.gz",
    "notula --server https://new.example import ~/backups/acme.tar.gz",
  );

export interface Input {
  out?: string;
}

/** The archive's file and its size; written beside as .part, and named only once whole. */
export async function run(f: Input, deps: Deps): Promise<{ file: string; bytes: number }> {
  const file = path.resolve(f.out ?? `notula-archive-${new Date().toISOString().slice(0, 10)}.tar.gz`);
  const part = `${file}.part`;
  const { renderProgress } = await import("../../lib/progress.js");
  const progress = renderProgress("Downloading");
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      progress.update(bytes, null);
      done(null, chunk);
    },
  });
  const sink = fs.createWriteStream(part);
  try {
    const written = new Promise<void>((resolve, reject) =>
      counted
        .pipe(sink)
        .on("finish", () => resolve())
        .on("error", reject),
    );
    await deps.api.download("getWorkspaceArchive", {}, counted);
    await written;
  } catch (err) {
    fs.rmSync(part, { force: true });
    throw err;
  } finally {
    progress.done();
  }
  fs.renameSync(part, file);
  return { file, bytes };
}

export function render(r: { file: string; bytes: number }) {
  process.stdout.write(`${r.file}\n`);
  info(`Wrote the workspace's archive, ${(r.bytes / 1024 / 1024).toFixed(1)} MB.`);
}

export const registerArchive = (program: Command) => under(program, clientDeps, [{ define, run, render }]);
