// A meeting in a room, on one microphone: turns said by flite's voices one after another
// (a short pause between), as one WAV, with when each turn was said.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface RoomTurn {
  voice: string;
  text: string;
  start: number;
  end: number;
}

export function roomMeeting(dir: string, said: { voice: string; text: string }[], pauseSec = 0.4) {
  fs.mkdirSync(dir, { recursive: true });
  const parts: string[] = [];
  const turns: RoomTurn[] = [];
  let at = 0;
  const quiet = path.join(dir, "pause.wav");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `anullsrc=r=16000:cl=mono`,
    "-t",
    String(pauseSec),
    quiet,
  ]);
  said.forEach((s, i) => {
    const raw = path.join(dir, `turn-${i}.wav`);
    execFileSync("flite", ["-voice", s.voice, "-t", s.text, "-o", raw]);
    const wav = path.join(dir, `turn-${i}-16k.wav`);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", raw, "-ar", "16000", "-ac", "1", wav]);
    const sec = Number(
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", wav]).toString(),
    );
    turns.push({ ...s, start: at, end: at + sec });
    at += sec + pauseSec;
    parts.push(wav, quiet);
  });
  const list = path.join(dir, "list.txt");
  fs.writeFileSync(list, parts.map((p) => `file '${p}'`).join("\n"));
  const out = path.join(dir, "meeting.wav");
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", out]);
  return { file: out, turns };
}
