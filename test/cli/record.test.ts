// `notula record` against a real server, as the built binary: a spoken file recorded
// at real speed and streamed in pieces; the server killed (-9) and started again in
// the middle, the recorder keeping its pieces on disk and resuming, the note whole
// with no audio twice; Ctrl-C stops, Ctrl-C twice discards.
import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bursts, speakRepeated } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { BIN, startServerProcess, tempDir, type ProcessTestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";
import { wordOverlap } from "../helpers/vendors.js";
import { freePort } from "../helpers/free-port.js";

const SPOKEN =
  "Please schedule a meeting with the design team for Tuesday afternoon. Our quarterly revenue grew by twelve percent compared to last year.";
const work = tempDir("notula-record-");

const secondsOf = (file: string) =>
  Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]));

interface Recorder {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

describe("notula record", () => {
  let server: ProcessTestServer;
  let speech: string;
  const config = tempDir("notula-record-cfg-");

  function record(args: string[]): Recorder {
    const proc = spawn(process.execPath, [BIN, "record", ...args], {
      env: { ...process.env, NOTULA_URL: server.url, NOTULA_API_KEY: server.key, XDG_CONFIG_HOME: config },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stdout!.on("data", (d) => (out += d));
    proc.stderr!.on("data", (d) => (err += d));
    const exited = new Promise<number | null>((r) => proc.on("close", (code) => r(code)));
    return { proc, stdout: () => out, stderr: () => err, exited };
  }

  beforeAll(async () => {
    // Three times the sentences: about 25 seconds of speech.
    speech = speakRepeated(work, SPOKEN, 3);
    server = await startServerProcess({
      args: ["--no-rate-limit", "--stt-engine", "sphinx", "--port", String(await freePort())],
    });
  }, 60_000);
  afterAll(() => server?.stop());

  /** How many pieces of the recording a recorder announced the server has stored (0 before it says which). */
  async function piecesOf(stderr: string): Promise<number> {
    const id = /\((note_[^)]+)\)/.exec(stderr)?.[1];
    if (!id) return 0;
    const r = await client(server.url, server.key)("GET", `/v1/recordings/${id}`);
    return r.status === 200 ? (r.body.recording.pieces as number) : 0;
  }

  it("streams a recording in pieces, rides out the server being killed and restarted, and leaves one whole note", async () => {
    const recorder = record([
      "--input",
      speech,
      "--title",
      "Recorded at the terminal",
      "--piece-seconds",
      "1",
      "--json",
    ]);
    // Some pieces in, the server dies mid-meeting; it comes back a few seconds later.
    await until("pieces to arrive", () => /Recording "/.test(recorder.stderr()), 20_000);
    await until("five pieces stored", async () => (await piecesOf(recorder.stderr())) >= 5, 60_000);
    await server.kill9();
    await new Promise((r) => setTimeout(r, 3_000));
    await server.restart();
    const code = await recorder.exited;
    expect(code, recorder.stderr()).toBe(0);
    // --json prints the note, as upload and notes create do; what happened is on stderr.
    const result = JSON.parse(recorder.stdout());
    expect(result).toMatchObject({ id: expect.stringMatching(/^note_/), title: "Recorded at the terminal" });
    expect(Number(/Recorded \S+ in (\d+) pieces/.exec(recorder.stderr())?.[1])).toBeGreaterThanOrEqual(20);
    const api = client(server.url, server.key);
    const note = await waitForStatus(api, result.id, undefined, 120_000);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.title).toBe("Recorded at the terminal");
    // Every second once: no piece lost, none joined twice.
    expect(Math.abs(note.totalDurationSec - secondsOf(speech))).toBeLessThanOrEqual(1.5);
    expect(note.processingWarnings).toBeNull();
    const heard = note.transcripts.map((s: { text: string }) => s.text).join(" ");
    expect(wordOverlap(SPOKEN, heard), heard).toBeGreaterThanOrEqual(0.5);
    // Nothing is left waiting on disk.
    expect(fs.readdirSync(path.join(config, "notula", "recordings"))).toEqual([]);
  }, 180_000);

  it("stops on Ctrl-C with what was recorded, and discards the recording on a second Ctrl-C", async () => {
    const long = await bursts(work, 60, "wav");
    const stopped = record(["--input", long, "--piece-seconds", "1", "--json"]);
    await until("recording to start", () => /Recording "/.test(stopped.stderr()), 20_000);
    await until("four pieces stored", async () => (await piecesOf(stopped.stderr())) >= 4, 60_000);
    stopped.proc.kill("SIGINT");
    expect(await stopped.exited, stopped.stderr()).toBe(0);
    expect(stopped.stderr()).toMatch(/Stopping/);
    const kept = JSON.parse(stopped.stdout());
    const api = client(server.url, server.key);
    const note = await waitForStatus(api, kept.id, undefined, 120_000);
    expect(note.status, note.processingError).toBe("completed");
    // What was recorded up to the stop, not the whole minute of input.
    expect(note.totalDurationSec).toBeGreaterThanOrEqual(3);
    expect(note.totalDurationSec).toBeLessThan(50);

    const discarded = record(["--input", long, "--piece-seconds", "1"]);
    await until("recording to start", () => /\(note_/.test(discarded.stderr()), 20_000);
    const id = /\((note_[^)]+)\)/.exec(discarded.stderr())![1];
    await until("two pieces stored", async () => (await piecesOf(discarded.stderr())) >= 2, 60_000);
    // The server stops answering, so the stop hangs on the last pieces: a second Ctrl-C discards it all.
    server.proc.kill("SIGSTOP");
    discarded.proc.kill("SIGINT");
    await until("the recorder to stop", () => /Stopping/.test(discarded.stderr()), 20_000);
    // A second Ctrl-C counts from 250 ms after the first (one sooner is taken for a re-raised
    // signal and ignored): press it again until the recorder says it discards, however slow
    // the machine. The server answers again only once the recorder has taken it.
    await until(
      "the recorder to discard",
      () => {
        if (/Discarding/.test(discarded.stderr())) return true;
        discarded.proc.kill("SIGINT");
        return false;
      },
      20_000,
      150,
    );
    server.proc.kill("SIGCONT");
    expect(await discarded.exited).toBe(130);
    expect(discarded.stderr()).toMatch(/discarded/);
    expect((await api("GET", `/v1/notes/${id}`)).status).toBe(404);
  }, 120_000);
});
