// Every recording format the service accepts, made by ffmpeg from real speech and sent
// with `notula upload`: the duration read from the file itself (no ffprobe on the
// PATH), a title never taken from the file's name, and the spoken words in the transcript.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speak } from "../helpers/audio.js";
import { client, type Client } from "../helpers/http.js";
import { run, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { wordOverlap } from "../helpers/vendors.js";

const SPOKEN = "Please schedule a meeting with the design team for Tuesday afternoon.";
/** ffmpeg's encoder for each container, as recorders and browsers write them. */
const ENCODINGS: Record<string, string[]> = {
  m4a: ["-c:a", "aac"],
  mp3: ["-c:a", "libmp3lame"],
  wav: [],
  aac: ["-c:a", "aac", "-f", "adts"],
  ogg: ["-c:a", "libvorbis"],
  opus: ["-c:a", "libopus"],
  webm: ["-c:a", "libopus"],
  flac: ["-c:a", "flac"],
  // A video file with its sound: a still picture and the speech.
  mp4: [
    "-f",
    "lavfi",
    "-i",
    "color=c=black:s=64x64:r=5",
    "-shortest",
    "-c:v",
    "libx264",
    "-c:a",
    "aac",
    "-pix_fmt",
    "yuv420p",
  ],
};

let server: TestServer;
let api: Client;
const work = tempDir("notula-formats-");
let speech: string;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
  api = client(server.url, server.key);
  speech = speak(work, SPOKEN);
});
afterAll(() => server?.stop());

describe("notula upload, every accepted format", () => {
  for (const [format, args] of Object.entries(ENCODINGS)) {
    it(`${format}: duration from the file, no title from its name, the words transcribed`, async () => {
      const file = path.join(work, `Design sync ${format}.${format}`);
      const [extra, codec] = format === "mp4" ? [args.slice(0, 5), args.slice(5)] : [[], args];
      execFileSync("ffmpeg", ["-v", "error", "-y", "-i", speech, ...extra, ...codec, file]);
      // No ffprobe: the CLI reads the duration from the file's own headers.
      const r = await run(["upload", file, "--wait", "--json"], {
        env: {
          NOTULA_URL: server.url,
          NOTULA_API_KEY: server.key,
          XDG_CONFIG_HOME: tempDir("notula-cfg-"),
          NOTULA_NO_KEYCHAIN: "1",
          PATH: "/nonexistent",
        },
      });
      expect(r.code, r.stderr).toBe(0);
      const note = JSON.parse(r.stdout);
      // One sentence names no topic twice: the note keeps the time it was made as its title, never the file's name.
      expect(note.title).toMatch(/^Recording \d{4}-/);
      expect(note.status).toBe("completed");
      const heard = note.transcripts.map((s: { text: string }) => s.text).join(" ");
      expect(wordOverlap(SPOKEN, heard), heard).toBeGreaterThanOrEqual(0.5);
      const stored = (await api("GET", `/v1/notes/${note.id}`)).body.note;
      expect(stored.totalDurationSec).toBeGreaterThanOrEqual(3);
    }, 60_000);
  }
});
