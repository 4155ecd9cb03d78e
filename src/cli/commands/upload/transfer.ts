// The two halves of sending a recording: how long it is (from its headers, else
// ffprobe), and the PUT to the upload URL with a progress bar.
import { CliError, exitCodeFor } from "../../exit.js";

/** The recording's length in seconds: read from the file's own headers, else measured by ffprobe. */
export async function durationOf(file: string): Promise<number> {
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

/** PUT with a progress bar, streaming the file (constant memory whatever its size); "not now" is retried. */
export async function put(url: string, file: string, contentType: string, size: number) {
  const { withBackOff } = await import("../../lib/back-off.js");
  const answer = await withBackOff("PUT the recording", () => putOnce(url, file, contentType, size));
  if (answer.status === 200) return;
  let message = answer.text;
  try {
    const e = JSON.parse(answer.text).error;
    message = `${e.code}: ${e.message}`;
  } catch {
    /* keep the raw text */
  }
  throw new CliError(`The upload was refused (${answer.status}): ${message}`, exitCodeFor(answer.status));
}

async function putOnce(url: string, file: string, contentType: string, size: number) {
  const fs = await import("node:fs");
  const { request } = (await import(
    url.startsWith("https:") ? "node:https" : "node:http"
  )) as typeof import("node:http");
  const { renderProgress } = await import("../../lib/progress.js");
  const progress = renderProgress("Uploading");
  return new Promise<{ status: number; retryAfter?: string; text: string }>((resolve, reject) => {
    const req = request(
      url,
      { method: "PUT", headers: { "content-type": contentType, "content-length": String(size) } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          progress.done();
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], text });
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
