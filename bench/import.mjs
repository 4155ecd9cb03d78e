// notula import of 1,000 transcripts (WebVTT, ten cues each, as Zoom writes them) against
// a fresh server, timed end to end through the built CLI, against the same notes sent as
// POST /v1/notes bodies straight from this process to another fresh server (the baseline:
// what the API itself costs). Then the run again, which makes nothing. Notes per second,
// and the ratio of the two.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { api, root, startServer, stopServer } from "./lib.mjs";
import { MEETING_LINES } from "./meeting-lines.mjs";

const COUNT = Number(process.env.BENCH_IMPORT_COUNT ?? 1000);
const VOICES = ["Ana Lopez", "Ben Ode", "Cyrus Park", "Dee Lang"];

const stamp = (sec) => `00:${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}.000`;
const mmss = (sec) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;

/** Meeting i: ten lines, each a speaker's, five seconds apart; as a VTT and as the API body it makes. */
function meeting(i) {
  const lines = Array.from({ length: 10 }, (_, j) => ({
    speaker: VOICES[(i + j) % VOICES.length],
    text: `${MEETING_LINES[(i + j) % MEETING_LINES.length]} (meeting ${i})`,
    start: j * 5,
    end: j * 5 + 5,
  }));
  const vtt = `WEBVTT\n\n${lines.map((l) => `${stamp(l.start)} --> ${stamp(l.end)}\n<v ${l.speaker}>${l.text}\n`).join("\n")}`;
  const body = {
    title: `Meeting ${i}`,
    transcripts: lines.map((l) => ({
      speaker: l.speaker,
      text: l.text,
      startTimestamp: mmss(l.start),
      endTimestamp: mmss(l.end),
    })),
  };
  return { vtt, body };
}

export async function benchImport() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-import-"));
  const files = path.join(dir, "exports");
  fs.mkdirSync(files);
  const meetings = Array.from({ length: COUNT }, (_, i) => meeting(i));
  meetings.forEach((m, i) => fs.writeFileSync(path.join(files, `Meeting ${i}.vtt`), m.vtt));
  const direct = await startServer(path.join(dir, "direct"));
  const imported = await startServer(path.join(dir, "imported"));
  try {
    let t = performance.now();
    for (const m of meetings) await api(direct, "POST", "/v1/notes", m.body);
    const baseline = performance.now() - t;

    const env = { ...process.env, NOTULA_URL: imported.url, NOTULA_API_KEY: imported.key, XDG_CONFIG_HOME: dir };
    const cli = (args) => {
      const start = performance.now();
      const r = spawnSync(process.execPath, [path.join(root, "bin/notula.js"), "import", files, "--json", "-q"], {
        env,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      if (r.status !== 0) throw new Error(`notula import ${args}: ${r.stderr}`);
      const items = JSON.parse(r.stdout).items;
      return { ms: performance.now() - start, items };
    };
    const first = cli("first");
    const made = first.items.filter((x) => x.status === "made").length;
    const again = cli("again");
    const skipped = again.items.filter((x) => x.status === "skipped").length;

    const rate = (ms) => (COUNT / (ms / 1000)).toFixed(0);
    console.log(`\nImport of ${COUNT} WebVTT transcripts (ten cues each)`);
    console.log(
      `POST /v1/notes from here (baseline)   ${(baseline / 1000).toFixed(2).padStart(7)} s   ${rate(baseline).padStart(5)} notes/s`,
    );
    console.log(
      `notula import DIR                     ${(first.ms / 1000).toFixed(2).padStart(7)} s   ${rate(first.ms).padStart(5)} notes/s   ratio ${(first.ms / baseline).toFixed(2)}   made ${made}`,
    );
    console.log(
      `notula import DIR again               ${(again.ms / 1000).toFixed(2).padStart(7)} s   ${rate(again.ms).padStart(5)} files/s   ratio ${(again.ms / baseline).toFixed(2)}   skipped ${skipped}`,
    );
    console.log(
      `goal: every file made once, and nothing twice: ${made === COUNT && skipped === COUNT ? "met" : "not met"}`,
    );
  } finally {
    await Promise.all([stopServer(direct.proc), stopServer(imported.proc)]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
