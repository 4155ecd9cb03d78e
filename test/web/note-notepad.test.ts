// The page of a note being recorded elsewhere (a phone, the CLI), opened in headless
// Chromium: whoever may edit the note writes beside its transcript as it grows; each
// line begun is stamped with the recording's time and saved as typed; the transcript
// grows in place without reloading the page under the person typing; once the
// recording stops, the notes are the note's and the page shows it done.
import { type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { bursts, oggPieces } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = "notepad password 1";
const work = tempDir("notula-web-notepad-");
let server: TestServer;
let stt: VendorServer;
let browser: Browser;
let api: Client;

beforeAll(async () => {
  stt = await startTranscriptionServer({ echo: true });
  server = await startServer({ args: ["--no-rate-limit", "--stt-url", stt.url] });
  api = client(server.url, server.key);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stt?.close();
});

describe("the notepad on the page of a note being recorded", () => {
  it("saves the lines typed beside the growing transcript, stamped with the recording's time, without reloading", async () => {
    const { pieces, durationMs } = oggPieces(await bursts(work, 60, "wav"), 12);
    const noteId = (await api("POST", "/v1/recordings", { format: "ogg", title: "Call from the phone" })).body.note.id;
    const put = (seq: number) =>
      fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}?durationMs=${durationMs}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
        body: pieces[seq],
      });
    expect((await put(0)).status).toBe(200);

    const page = await signedInPage(browser, server.url, "admin@notula.local", PASSWORD);
    await page.goto(`${server.url}/notes/${noteId}`);
    // A mark on the page: a reload would take it away.
    await page.evaluate(() => (window.notReloaded = true));
    const notepad = page.locator("#note-notes");
    await notepad.click();
    await notepad.pressSequentially("pricing page is the blocker");
    await until(
      "the line to be saved",
      async () => (await page.locator("#note-notes-state").textContent()) === "Saved.",
    );
    expect(await notepad.inputValue()).toMatch(/^\[\d\d:\d\d\] pricing page is the blocker$/);
    expect((await api("GET", `/v1/notes/${noteId}`)).body.note.userWrittenNote).toBe(await notepad.inputValue());

    // The meeting goes on: its transcript grows on the page, in place, the notes as typed.
    for (let seq = 1; seq < pieces.length; seq++) expect((await put(seq)).status).toBe(200);
    await until(
      "the transcript on the page",
      async () => (await page.locator("#live-transcript ol.transcript li").count()) > 0,
      60_000,
      250,
    );
    await notepad.press("End");
    await notepad.press("Enter");
    await notepad.pressSequentially("ACTION Ana sends the pricing draft");
    await until(
      "the second line to be saved",
      async () => (await page.locator("#note-notes-state").textContent()) === "Saved.",
    );
    expect(await page.evaluate(() => window.notReloaded)).toBe(true);

    // Stopped: the notes are the note's, and the page follows it to its end.
    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
    const note = await waitForStatus(api, noteId);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.userWrittenNote).toMatch(
      /^\[\d\d:\d\d\] pricing page is the blocker\n\[\d\d:\d\d\] ACTION Ana sends the pricing draft$/,
    );
    expect(note.enhancedNote).toMatch(/- \[ \] Ana sends the pricing draft/);
    await until(
      "the page to show the note done",
      async () => (await page.locator("#note-notes").count()) === 0,
      60_000,
    );
    await page.context().close();
  }, 180_000);
});
