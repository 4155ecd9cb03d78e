// The files `notula import` is given, read as what each note is made of: files as they
// are, folders through their subfolders, quoted globs; and a recording beside a
// transcript of the same name, paired with it.
import fs from "node:fs";
import path from "node:path";
import { CliError, EXIT } from "../../exit.js";
import { isRecording, isTranscript as importable, takesRecording } from "../../../shared/import/file-kinds.js";
import { isArchive } from "./archive.js";

const stem = (file: string) => path.basename(file, path.extname(file));

/** The files beside `file` (in its directory) with its name and an extension of `kind`, in a stable order. */
function siblings(file: string, kind: (f: string) => boolean): string[] {
  const dir = path.dirname(file);
  return fs
    .readdirSync(dir)
    .filter((f) => stem(f) === stem(file) && kind(f))
    .sort()
    .map((f) => path.join(dir, f));
}

export interface Entry {
  /** The transcript or note file. */
  file: string;
  /** The recording beside it, attached to its note. */
  recording: string | null;
  /** Why the file cannot make a note (a recording with no transcript). */
  error?: string;
}

/**
 * What each note is made of: a transcript or note file, and the recording beside it. A
 * recording named on its own is taken with its transcript; without one it is refused
 * (`notula upload` transcribes a recording).
 */
export function entriesOf(files: string[]): Entry[] {
  // In the order given: a recording stands for its transcript.
  const transcripts = new Set(files.flatMap((f) => (isRecording(f) ? siblings(f, importable).slice(0, 1) : [f])));
  const paired = new Set<string>();
  const entries = [...transcripts].map((file): Entry => {
    // A markdown note is what someone wrote, not a recording's transcript.
    const recording = takesRecording(file) ? (siblings(file, isRecording)[0] ?? null) : null;
    if (recording) paired.add(recording);
    return { file, recording };
  });
  const alone = files.filter((f) => isRecording(f) && !paired.has(f));
  return [
    ...entries,
    ...alone.map((file) => ({
      file,
      recording: null,
      error: `${path.basename(file)} has no transcript beside it (${stem(file)}.vtt, .srt or .txt); to transcribe a recording, use notula upload.`,
    })),
  ];
}

/** The files the paths name: a file as it is, a folder's importable files (through its folders), a glob's matches. */
export async function filesOf(paths: string[]): Promise<string[]> {
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
      const found = (await glob(p, { onlyFiles: true }))
        .filter((f) => importable(f) || isRecording(f) || isArchive(f))
        .sort();
      if (!found.length) throw new CliError(`Nothing matches ${p}.`, EXIT.usage);
      out.push(...found);
    } else throw new CliError(`No such file or folder: ${p}`, EXIT.usage);
  }
  return [...new Set(out.map((f) => path.resolve(f)))];
}
