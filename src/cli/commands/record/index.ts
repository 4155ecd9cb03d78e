// notula record: records the meeting where it happens (the microphone, and the
// system's sound where asked, or a file at real speed) and streams it to the server
// as it goes, in pieces kept on disk until the server has stored them. The note
// exists from the first second; its transcript grows during the meeting.
import { noteUrl } from "../../../shared/note-links.js";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { CliError, EXIT } from "../../exit.js";
import { clientDeps, isJson, under, type Deps } from "../../lib/command.js";
import { configDir } from "../../lib/credentials.js";
import { info, isQuiet } from "../../lib/output.js";
import { waitForNote } from "../../lib/wait.js";
import { collect, participantsOf, PARTICIPANT_HELP } from "../../lib/people.js";
import { ffmpegArgs, listDevices, twoSides } from "./capture.js";
import { channelsOf } from "../../lib/people.js";
import { createSpool } from "./spool.js";

export const define = (program: Command) =>
  program
    .command("record")
    .description("Record a meeting and stream it to the server as it goes; Ctrl-C stops (twice quickly: discard)")
    .option("--title <title>", "title of the note")
    .option("--folder <id>", "file the note in this folder")
    .option("--event <id>", "the meeting in your calendar (see `notula calendar events`): its title and attendees")
    .option("--participant <person>", PARTICIPANT_HELP, collect)
    .option("--device <name>", "the microphone (see --list-devices; default: the system's)")
    .option("--system-audio", "mix in what the speakers play (a call in another app), where the platform allows")
    .option("--input <file>", "record from a file, played at real speed, instead of a device")
    .option("--channels <me,others>", "the input file's two channels are you and the others (who said what)")
    .option("--piece-seconds <n>", "seconds of audio per piece sent", "5")
    .option("--wait", "after stopping, follow processing until the note is done")
    .option("--list-devices", "list the capture devices and exit")
    .addHelpText(
      "after",
      "\nExamples:\n  notula record --title 'Weekly sync' --wait\n  notula record --event cev_… --system-audio\n  notula record --system-audio --folder fld_…\n  notula record --input interview.wav",
    );

export interface Input {
  title?: string;
  folder?: string;
  event?: string;
  participant?: string[];
  device?: string;
  systemAudio?: boolean;
  input?: string;
  channels?: string;
  pieceSeconds: string;
  wait?: boolean;
  listDevices?: boolean;
}

export interface Result {
  noteId?: string;
  url?: string;
  pieces?: number;
  durationSec?: number;
  note?: NoteDto;
  devices?: string;
}

export function validate(f: Input) {
  const seconds = Number(f.pieceSeconds);
  if (!Number.isFinite(seconds) || seconds < 0.5 || seconds > 60)
    throw new CliError("--piece-seconds must be between 0.5 and 60.", EXIT.usage);
  if (f.input && !fs.existsSync(f.input)) throw new CliError(`No file ${f.input}.`, EXIT.usage);
  if (f.channels !== undefined) channelsOf(f.channels);
  if (f.channels && !f.input)
    throw new CliError(
      "--channels is for --input; --system-audio keeps you and the others apart by itself.",
      EXIT.usage,
    );
}

const clock = (sec: number) =>
  `${String(Math.floor(sec / 3600)).padStart(2, "0")}:${String(Math.floor(sec / 60) % 60).padStart(2, "0")}:${String(Math.floor(sec % 60)).padStart(2, "0")}`;

/** A level meter for a momentary loudness in LUFS: silence (-60 and below) to loud (-10). */
const meter = (lufs: number) => {
  const filled = Math.max(0, Math.min(10, Math.round((lufs + 60) / 5)));
  return "▮".repeat(filled) + "▯".repeat(10 - filled);
};

export async function run(f: Input, deps: Deps): Promise<Result> {
  if (f.listDevices) return { devices: listDevices() };
  validate(f);
  const capture = { input: f.input, device: f.device, systemAudio: f.systemAudio, sides: Boolean(f.channels) };
  const args = ffmpegArgs(capture);
  const { note } = await deps.api.call("startRecording", {
    body: {
      format: "ogg",
      title: f.title,
      folderId: f.folder,
      calendarEventId: f.event,
      participants: participantsOf(f.participant),
      ...(twoSides(capture) ? { channels: ["me", "others"] as ["me", "others"] } : {}),
    },
  });
  const url = noteUrl(deps.server, note.id);
  info(`Recording "${note.title}" (${note.id}): ${url}`);
  const tty = Boolean(process.stderr.isTTY);
  let elapsed = 0;
  let level = -120;
  const line = () => {
    if (!tty) return;
    const s = spool.status();
    const network = s.failing ? `  waiting for the server (${s.waiting} kept)` : "";
    if (!isQuiet()) process.stderr.write(`\r\x1b[2K● REC ${clock(elapsed)}  ${meter(level)}  sent ${s.sent}${network}`);
  };
  const spool = createSpool(
    path.join(configDir(), "recordings", note.id),
    async (seq, body, durationMs) => {
      const r = await deps.api.sendBytes("addRecordingPiece", {
        params: { id: note.id, seq: String(seq) },
        query: { durationMs },
        body,
        contentType: "audio/ogg",
      });
      return { status: r.status, message: (r.json as { error?: { message?: string } } | null)?.error?.message };
    },
    line,
  );

  // Its own process group: a Ctrl-C at the terminal reaches this process alone, which
  // stops ffmpeg once, so that it ends the stream properly.
  const ffmpeg = spawn("ffmpeg", args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  const exited = new Promise<number | null>((resolve, reject) => {
    ffmpeg.on("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "ENOENT"
          ? new CliError(
              "ffmpeg is needed to record; install it (Debian: apt-get install ffmpeg; macOS: brew install ffmpeg).",
            )
          : err,
      ),
    );
    ffmpeg.on("close", (code) => resolve(code));
  });
  // The log: the loudness of each 100 ms and how much audio has been captured, and
  // (kept for the error message) anything else ffmpeg says.
  let stderr = "";
  let partial = "";
  ffmpeg.stderr!.on("data", (d: Buffer) => {
    const lines = (partial + d.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const l of lines) {
      const t = /pts_time:([\d.]+)/.exec(l);
      const m = /lavfi\.r128\.M=(-?[\d.]+|-inf)/.exec(l);
      if (t) elapsed = Number(t[1]);
      else if (m) level = m[1] === "-inf" ? -120 : Number(m[1]);
      else stderr = (stderr + l + "\n").slice(-2000);
    }
  });

  // Cut the stream into pieces every few seconds of captured audio.
  let pending: Buffer[] = [];
  let seq = 0;
  let cutAt = 0;
  const cut = () => {
    if (!pending.length) return;
    const body = Buffer.concat(pending);
    pending = [];
    const durationMs = Math.max(0, Math.round((elapsed - cutAt) * 1000));
    cutAt = elapsed;
    spool.add(seq++, body, durationMs);
  };
  ffmpeg.stdout!.on("data", (d: Buffer) => pending.push(d));
  const pieceMs = Number(f.pieceSeconds) * 1000;
  const ticker = setInterval(() => {
    if (elapsed - cutAt >= pieceMs / 1000) cut();
    line();
  }, 100);

  // Ctrl-C stops; a second one within 3 seconds discards the recording, whatever the
  // stop was waiting for (the last pieces, a server that does not answer).
  let stopping = 0;
  let discard!: () => void;
  const discarded = new Promise<"discarded">((resolve) => (discard = () => resolve("discarded")));
  const onSignal = () => {
    const t = Date.now();
    // A handler a dependency installed re-raises the signal at once: a person's second
    // Ctrl-C comes later than that.
    if (stopping && t - stopping < 250) return;
    if (stopping && t - stopping < 3000) {
      ffmpeg.kill("SIGKILL");
      info("Discarding the recording…");
      discard();
      return;
    }
    stopping = t;
    if (tty) process.stderr.write("\n");
    info("Stopping… (Ctrl-C again within 3 s to discard the recording)");
    ffmpeg.kill("SIGINT");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const finish = async (): Promise<Result> => {
    const code = await exited;
    clearInterval(ticker);
    if (code !== 0 && !stopping)
      throw new CliError(`ffmpeg stopped recording: ${stderr.trim() || `exit ${code}`}`, EXIT.error);
    // The process has closed its streams: every byte it wrote is in `pending` or sent.
    cut();
    if (tty) process.stderr.write("\n");
    if (spool.status().waiting) info(`Sending the last ${spool.status().waiting} piece(s)…`);
    await spool.flush();
    const stopped = await deps.api.call("stopRecording", { params: { id: note.id } });
    spool.remove();
    const durationSec = Math.round(elapsed);
    info(
      `Recorded ${clock(durationSec)} in ${seq} pieces; ${stopped.note.status === "completed" ? "done" : "processing"}: ${url}`,
    );
    return { noteId: note.id, url, pieces: seq, durationSec, note: stopped.note };
  };

  try {
    const outcome = await Promise.race([finish(), discarded]);
    if (outcome === "discarded") {
      spool.remove();
      await deps.api.call("deleteNote", { params: { id: note.id } }).catch(() => {});
      throw new CliError(`Recording discarded: note ${note.id} was deleted.`, 130);
    }
    if (f.wait) outcome.note = await waitForNote(deps, note.id);
    return outcome;
  } finally {
    clearInterval(ticker);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * Under --json, the note, as `upload` and `notes create` print theirs (the devices as
 * `{ items }`); what happened is on stderr either way.
 */
export const jsonOf = (r: Result) =>
  r.devices !== undefined ? { items: r.devices.split("\n").filter((l) => l.trim()) } : r.note;

/** The note's id on standard output (what happened is on stderr). */
export function render(r: Result) {
  if (r.devices !== undefined)
    return r.devices.trim()
      ? void process.stdout.write(r.devices)
      : info("No capture devices found: neither PulseAudio/PipeWire (pactl) nor ALSA (arecord) lists any here.");
  process.stdout.write(`${r.noteId}\n`);
}

/** Listing devices needs no server: it connects only to record. */
const recordDeps = (cmd: Command): Promise<Deps> | Deps =>
  cmd.opts().listDevices ? { api: null as never, server: "", json: isJson(cmd) } : clientDeps(cmd);

export const registerRecord = (program: Command) =>
  under(program, recordDeps, [{ define, validate, run, render, jsonOf }]);
