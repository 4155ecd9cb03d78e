// The browser recorder with a call's tab shared, in headless Chromium: the fake
// microphone plays the person (flite's slt) and the shared tab plays the others (awb,
// a few seconds later). Headless Chromium cannot share a real tab's sound, so the page's
// getDisplayMedia is replaced by the sound of an <audio> element captured in the page
// (captureStream), which reaches the recorder as a shared tab's audio track does. The
// recorder keeps the two apart as two channels; the note's transcript names the
// person for what they said and "Others" for the tab.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { capture } from "../helpers/page-checks.js";
import { speak } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { admin, startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

// What page.evaluate's callbacks see (the suite compiles without the DOM library).
declare const navigator: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const Audio: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = "recording password 2";
const ME = "Please schedule a meeting with the design team for Tuesday afternoon.";
const OTHERS = "Our quarterly revenue grew by twelve percent compared to last year.";

let server: TestServer;
let browser: Browser;
let othersWav: Buffer;

/** `speech` after `leadSec` of silence, padded with silence to `totalSec`, as a mono WAV at `rate`. */
function padded(dir: string, speech: string, leadSec: number, totalSec: number, rate: number): string {
  const out = path.join(dir, `padded-${leadSec}-${rate}.wav`);
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-i",
    speech,
    "-af",
    `adelay=${leadSec * 1000},apad=whole_dur=${totalSec}`,
    "-ac",
    "1",
    "-ar",
    String(rate),
    out,
  ]);
  return out;
}

beforeAll(async () => {
  const work = tempDir("notula-web-sides-");
  const me = padded(work, speak(work, ME, "slt"), 0.5, 40, 48000);
  othersWav = fs.readFileSync(padded(work, speak(work, OTHERS, "awb"), 6, 20, 48000));
  server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = await launchChromium([
    "--autoplay-policy=no-user-gesture-required",
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-audio-capture=${me}`,
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("recording a call in the browser", () => {
  it("keeps the microphone and the shared tab apart, and the transcript says who said what", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.route("**/test-call/others.wav", (route) =>
      route.fulfill({ status: 200, contentType: "audio/wav", body: othersWav }),
    );
    await page.addInitScript(() => {
      navigator.mediaDevices.getDisplayMedia = async () => {
        const a = new Audio("/test-call/others.wav");
        await a.play();
        return a.captureStream();
      };
    });
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel("Email").fill("admin@notula.local");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/notes$/);
    await page.goto(`${server.url}/notes/new`);
    await page.getByLabel("Name of the meeting (optional)").fill("Call with the team");
    await page.getByLabel(/Also record a call in another tab/).check();
    const started = page.waitForRequest((r) => r.url().endsWith("/notes/record/start"));
    await page.getByRole("button", { name: "Record", exact: true }).click();
    expect((await started).postDataJSON().channels).toEqual(["me", "others"]);
    await until("recording to start", async () => (await page.locator("#record-state").textContent()) === "Recording…");
    // Both have spoken by 14 s of recording (the recorder's own clock on the page).
    await until(
      "14 seconds recorded",
      async () => ((await page.locator("#record-elapsed").textContent()) ?? "") >= "00:00:14",
      60_000,
    );
    await page.getByRole("button", { name: "Stop" }).click();
    await page.waitForURL(/\/notes\/note_/, { timeout: 60_000 });
    const noteId = new URL(page.url()).pathname.split("/").pop()!;
    const api = client(server.url, server.key);
    await waitForStatus(api, noteId, ["completed", "recorded-not-summarized"], 120_000);
    const segments = await storeQuery(
      server.dataDir,
      "SELECT start_sec, speaker, text FROM transcript_segments WHERE note_id = ? ORDER BY position",
      noteId,
    );
    const said = (who: string) =>
      segments
        .filter((s) => s.speaker === who)
        .map((s) => s.text)
        .join(" ");
    expect(said("Admin"), JSON.stringify(segments)).toMatch(/schedule|meeting|design|tuesday/);
    expect(said("Others"), JSON.stringify(segments)).toMatch(/quarterly|revenue|twelve|percent/);
    expect(said("Admin")).not.toMatch(/revenue|percent/);
    expect(said("Others")).not.toMatch(/schedule|tuesday/);

    // The note page: each speaker's talk time as a bar; a name marks their lines.
    await page.goto(`${server.url}/notes/${noteId}`);
    const speakers = page.locator("ul.speakers");
    await speakers.waitFor();
    for (const who of ["Admin", "Others"])
      expect(Number(await speakers.getByLabel(`${who}'s talk time`).getAttribute("value"))).toBeGreaterThan(0);
    await speakers.getByRole("button", { name: "Others" }).click();
    const marked = page.locator("ol.transcript li.marked-speaker");
    expect(await marked.count()).toBe(segments.filter((s) => s.speaker === "Others").length);
    // The recognizer may split the others' sentence (or hear a short phrase in the
    // silence), so the marked lines are checked together, each as the others'.
    const markedLines = await marked.allTextContents();
    for (const line of markedLines) expect(line).toContain("Others");
    expect(markedLines.join(" ")).toMatch(/quarterly|revenue|twelve|percent/);
    expect(await speakers.getByRole("button", { name: "Others" }).getAttribute("aria-pressed")).toBe("true");
    await capture(page, "speakers");
    await speakers.getByRole("button", { name: "Others" }).click();
    expect(await marked.count()).toBe(0);
  }, 180_000);
});
