// The browser recorder in Firefox (Debian's ESR, headless): the same page records from
// Firefox's microphone (its fake one plays a tone), streams its Ogg/WebM Opus pieces,
// rides out a network cut (the pieces wait in IndexedDB), and stopping leaves one note
// whose recording is as long as the meeting, with no gap, and plays. Chromium's suite
// (record.test.ts) covers speech and closed tabs.
import { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchFirefox } from "../helpers/firefox.js";
import { waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

// What page.evaluate's callbacks see (the suite compiles without the DOM library).
declare const navigator: { userAgent: string };

const PASSWORD = "recording password 1";

let server: TestServer;
let browser: Browser;
let api: Client;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--stt-engine", "sphinx"] });
  api = client(server.url, server.key);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = await launchFirefox();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("recording in Firefox", () => {
  it("records, streams its pieces and stops into one note whose recording plays", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/sign-in`);
    await page.type("#email", "admin@notula.local");
    await page.type("#password", PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click("form button[type=submit]")]);
    await page.goto(`${server.url}/notes/new`);
    expect(await page.evaluate(() => navigator.userAgent)).toMatch(/Firefox\//);
    await page.type("#record-title", "Recorded in Firefox");
    await page.click("#record-start");
    const state = () => page.$eval("#record-state", (e) => e.textContent);
    await until("recording to start", async () => (await state()) === "Recording…", 20_000);
    const started = Date.now();
    // Pieces reach the server while it records.
    const noteId = (await api("GET", "/v1/notes?limit=1")).body.items[0].id as string;
    await until(
      "the first pieces on the server",
      async () => (await api("GET", `/v1/notes/${noteId}`)).body.note.status === "recording",
      20_000,
    );
    // The connection drops for a while: pieces wait in the browser (IndexedDB), then go.
    await new Promise((r) => setTimeout(r, 4_000));
    let cut = true;
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      if (cut && req.url().includes("/pieces/")) void req.abort("internetdisconnected");
      else void req.continue();
    });
    await until("the page to say it is offline", async () => /No connection/.test((await state()) ?? ""), 20_000);
    await new Promise((r) => setTimeout(r, 5_000));
    cut = false;
    await new Promise((r) => setTimeout(r, 6_000));
    // What the server holds just before the stop: the pieces the page sent, by their own durations.
    const sentBeforeStop = (await api("GET", `/v1/recordings/${noteId}`)).body.recording.durationSec as number;
    await Promise.all([page.waitForNavigation({ timeout: 60_000 }), page.click("#record-stop")]);
    const recordedSec = (Date.now() - started) / 1000;
    expect(page.url()).toBe(`${server.url}/notes/${noteId}`);
    const note = await waitForStatus(api, noteId, undefined, 120_000);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.title).toBe("Recorded in Firefox");
    expect(note.processingWarnings).toBeNull();
    // The recording holds at least every piece sent before the stop (none lost while
    // offline: processingWarnings would name it) and is no longer than the time it ran
    // (none joined twice): bounds that hold however fast this machine is.
    expect(sentBeforeStop).toBeGreaterThan(10);
    expect(note.totalDurationSec).toBeGreaterThanOrEqual(sentBeforeStop - 2);
    expect(note.totalDurationSec).toBeLessThanOrEqual(recordedSec + 2);
    const audio = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get("content-type"), bytes: (await r.arrayBuffer()).byteLength };
    }, `${server.url}/notes/${noteId}/audio`);
    expect([200, 206]).toContain(audio.status);
    expect(audio.type).toMatch(/^audio\/(webm|ogg)$/);
    expect(audio.bytes).toBeGreaterThan(10_000);
    await page.close();
  }, 180_000);
});
