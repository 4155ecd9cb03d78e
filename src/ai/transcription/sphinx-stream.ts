// pocketsphinx heard as a stream: one process per live recording, fed its audio as it is
// decoded, which says each phrase once the speaker pauses. A window at a time cost a
// process's start (loading the models, about a second on two busy cores) for every
// draft and every provisional tail, and heard each second of a meeting two or three
// times over: the live transcript fell 11-13 s behind the speech (docs/benchmarks.md).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BYTES_PER_SECOND } from "../audio.js";
import type { SpeechStream, TranscriptSegment } from "./engine.js";
import { phrasesFromWordTimes, sphinxModelFor } from "./sphinx-model.js";

/**
 * Starts a stream whose first byte is `offsetSec` into the recording; `onPhrase` is told
 * whenever a phrase has been heard (to read it with take()).
 */
export function startSphinxStream(o: { language?: string; offsetSec: number; onPhrase?: () => void }): SpeechStream {
  const model = sphinxModelFor(o.language);
  // pocketsphinx reads its audio with fopen(), which cannot open the socket Node gives a
  // child as its stdin: `cat` passes the samples on through a pipe. A file not named .wav
  // is read as raw samples, as the decoder writes them. Its own process group, so that
  // a kill takes both. At the priority pocketsphinx's windows run at: below it, on a busy
  // machine, the drafts and the note after the stop waited behind everything else.
  const proc = spawn(
    "sh",
    [
      "-c",
      `cat | exec pocketsphinx_continuous "$@"`,
      "sh",
      "-infile",
      "/dev/stdin",
      "-time",
      "yes",
      "-logfn",
      "/dev/null",
      ...model.args,
    ],
    { stdio: ["pipe", "pipe", "ignore"], detached: true },
  ) as unknown as ChildProcessWithoutNullStreams;
  let fedBytes = 0;
  let heardSec = o.offsetSec;
  let lines: string[] = [];
  let partial = "";
  let heard: TranscriptSegment[] = [];
  let exited = false;
  const closed = new Promise<void>((resolve) =>
    proc.on("close", () => {
      exited = true;
      resolve();
    }),
  );
  proc.on("error", () => (exited = true));
  proc.stdin.on("error", () => {}); // a recognizer that died is started again by the next pass
  // Each phrase is its words with their times, from <s> to </s>, times from the first byte.
  proc.stdout.on("data", (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8");
    const all = text.split("\n");
    partial = all.pop() ?? "";
    let said = false;
    for (const line of all) {
      lines.push(line);
      const end = /^<\/s> (\d+\.\d+) (\d+\.\d+)/.exec(line.trim());
      if (!end) continue;
      const phrases = phrasesFromWordTimes(lines.join("\n")).map((p) => ({
        ...p,
        start: p.start + o.offsetSec,
        end: p.end + o.offsetSec,
        words: p.words?.map((w) => ({ ...w, start: w.start + o.offsetSec, end: w.end + o.offsetSec })),
      }));
      lines = [];
      heard.push(...phrases);
      heardSec = Math.max(heardSec, o.offsetSec + Number(end[2]));
      said = true;
    }
    if (said) o.onPhrase?.();
  });
  return {
    write(pcm) {
      if (exited || !pcm.length) return;
      fedBytes += pcm.length;
      proc.stdin.write(pcm);
    },
    take() {
      const out = heard;
      heard = [];
      return out;
    },
    get pending() {
      return heard.length;
    },
    get fedSec() {
      return o.offsetSec + fedBytes / BYTES_PER_SECOND;
    },
    get heardSec() {
      return heardSec;
    },
    get exited() {
      return exited;
    },
    async finish() {
      proc.stdin.end();
      await closed;
    },
    kill() {
      if (exited || !proc.pid) return;
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    },
  };
}
