// notula upload FILE: the whole from-audio flow in one command.
import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { waitForNote } from "../lib/wait.js";
import { connect } from "../lib/context.js";
import { printJson } from "../lib/output.js";
import { AUDIO_EXTENSIONS } from "../../shared/vocabulary.js";

/** The recording's length in seconds: read from the file's own headers, else measured by ffprobe. */
async function durationOf(file: string): Promise<number> {
  try {
    const { parseFile } = await import("music-metadata");
    const seconds = (await parseFile(file, { duration: true, skipCovers: true })).format.duration;
    if (seconds && Number.isFinite(seconds) && seconds > 0) return seconds;
  } catch {
    // Not a container music-metadata reads: ffprobe may.
  }
  return probeDuration(file);
}

/** The recording's length in seconds, measured by ffprobe. */
async function probeDuration(file: string): Promise<number> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], (err, stdout) => {
      if (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT")
          return reject(
            new CliError(
              "ffprobe (part of ffmpeg) is needed to measure the recording; install ffmpeg, or pass --duration.",
            ),
          );
        return reject(new CliError(`${file} is not audio that ffprobe can read.`));
      }
      const seconds = Number(stdout.trim());
      if (!Number.isFinite(seconds) || seconds <= 0)
        return reject(new CliError(`${file} has no measurable duration; pass --duration.`));
      resolve(seconds);
    });
  });
}

/** PUT with a progress bar, streaming the file (constant memory whatever its size). */
async function put(url: string, file: string, contentType: string, size: number) {
  const fs = await import("node:fs");
  const { request } = (await import(
    url.startsWith("https:") ? "node:https" : "node:http"
  )) as typeof import("node:http");
  const { renderProgress } = await import("../progress.js");
  const progress = renderProgress("Uploading");
  await new Promise<void>((resolve, reject) => {
    const req = request(
      url,
      { method: "PUT", headers: { "content-type": contentType, "content-length": String(size) } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          progress.done();
          if (res.statusCode === 200) return resolve();
          let message = text;
          try {
            const e = JSON.parse(text).error;
            message = `${e.code}: ${e.message}`;
          } catch {
            /* keep the raw text */
          }
          reject(new CliError(`The upload was refused (${res.statusCode}): ${message}`));
        });
      },
    );
    req.on("error", (err) => {
      progress.done();
      reject(new CliError(`The upload failed: ${err.message}`));
    });
    let sent = 0;
    const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    stream.on("data", (chunk) => {
      sent += chunk.length;
      progress.update(sent, size);
    });
    stream.pipe(req);
  });
}

export function registerUpload(program: Command) {
  program
    .command("upload")
    .description(`Upload a recording and make a note of it (${AUDIO_EXTENSIONS.join(", ")})`)
    .argument("<file>", "the recording")
    .option("--title <title>", "title of the note")
    .option("--folder <id>", "file the note in this folder")
    .option("--calendar-event <id>", "the calendar event it belongs to")
    .option("--duration <seconds>", "its length, when ffprobe is not installed")
    .option("--wait", "follow processing until the note is done")
    .addHelpText("after", "\nExample:\n  notula upload standup.m4a --title 'Standup' --wait")
    .action(async (file: string, f, cmd: Command) => {
      const fs = await import("node:fs");
      const path = await import("node:path");
      if (!fs.existsSync(file)) throw new CliError(`No file ${file}.`, EXIT.usage);
      const ext = path.extname(file).slice(1).toLowerCase();
      if (!(AUDIO_EXTENSIONS as string[]).includes(ext))
        throw new CliError(`${file}: the extension must be one of ${AUDIO_EXTENSIONS.join(", ")}.`, EXIT.usage);
      const ctx = await connect(cmd);
      const duration = f.duration ? Number(f.duration) : await durationOf(file);
      if (!Number.isFinite(duration) || duration <= 0)
        throw new CliError("--duration must be a positive number of seconds.", EXIT.usage);
      const url = await ctx.api.call("generateUploadUrl", {
        body: { fileExtension: ext, duration: Math.ceil(duration) },
      });
      await put(url.presignedUrl, file, url.contentType, fs.statSync(file).size);
      const { noteId } = await ctx.api.call("createNoteFromAudio", {
        // Without --title, the file's name: "Weekly sync.m4a" becomes "Weekly sync".
        body: {
          audioUrl: url.audioUrl,
          title: f.title ?? path.basename(file, path.extname(file)).slice(0, 500),
          folderId: f.folder,
          calendarEventId: f.calendarEvent,
        },
      });
      if (!f.wait) {
        if (ctx.json) printJson({ noteId });
        else process.stdout.write(`${noteId}\n`);
        return;
      }
      try {
        const note = await waitForNote(ctx, noteId);
        if (ctx.json) printJson({ note });
        else process.stdout.write(`${noteId}\n`);
      } catch (err) {
        // The note's id still goes to stdout: the recording is kept and can be processed again.
        if (!ctx.json) process.stdout.write(`${noteId}\n`);
        throw err;
      }
    });
}
