// The web app's import page in headless Chromium: files dropped on it (a Zoom VTT, a
// markdown note) become notes, each with a link; the same file dropped again is
// "Imported before"; a file it cannot read says why, and the rest go on. Without the
// page's script the form posts the files alike; a batch over the page's limit is refused
// before it is read.
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { capture } from "../helpers/page-checks.js";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { PASSWORD, webSession } from "../helpers/world.js";
import { MAX_IMPORT_FORM_BYTES } from "../../src/web/routes/import.js";

let server: TestServer;
let api: Client;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = await launchChromium();
  page = await signedInPage(browser, server.url, "admin@notula.local", PASSWORD);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ana>We open the Lisbon office in March.\n";
const NOTE = "---\ntitle: Offsite planning\ndate: 2025-02-01T10:00:00Z\n---\n- Lodge booked for thirty people\n";

/** Drops files on the page's zone as a person drags them from their desktop. */
async function drop(files: { name: string; text: string }[]) {
  // Runs in the page: its DataTransfer, which Node.js's types do not know.
  type InPage = { DataTransfer: new () => { items: { add(file: File): void } } };
  const transfer = await page.evaluateHandle((list) => {
    const dt = new (globalThis as unknown as InPage).DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: "text/plain" }));
    return dt;
  }, files);
  await page.dispatchEvent("#import-drop", "drop", { dataTransfer: transfer });
}

describe("the import page", () => {
  it("makes a note of each file dropped on it, and says so with a link to each", async () => {
    await page.goto(`${server.url}/notes/new`);
    await page.getByRole("link", { name: "Import them" }).click();
    await page.waitForURL(/\/notes\/import$/);
    await drop([
      { name: "Lisbon sync.vtt", text: VTT },
      { name: "offsite.md", text: NOTE },
    ]);
    expect(await page.locator("#import-chosen li").allTextContents()).toEqual(["Lisbon sync.vtt", "offsite.md"]);
    await page.getByRole("button", { name: "Import" }).click();
    await page.locator("#import-outcomes").waitFor();
    expect(await page.getByRole("status").first().textContent()).toBe(
      "Made 2, skipped 0 imported before, 0 not imported.",
    );
    const notes = (await api("GET", "/v1/notes")).body.items as { id: string; title: string }[];
    expect(notes.map((n) => n.title).sort()).toEqual(["Lisbon sync", "Offsite planning"]);
    const lisbon = notes.find((n) => n.title === "Lisbon sync")!;
    expect(await page.locator(`#import-outcomes a[href="/notes/${lisbon.id}"]`).count()).toBe(1);
    const note = (await api("GET", `/v1/notes/${lisbon.id}`)).body.note;
    expect(note.transcripts[0]).toMatchObject({ speaker: "Ana", text: "We open the Lisbon office in March." });

    // Again, with a file it cannot read: the one before is skipped, the broken one says why.
    await drop([
      { name: "Lisbon sync.vtt", text: VTT },
      { name: "broken.srt", text: "not subtitles\n" },
    ]);
    await page.getByRole("button", { name: "Import" }).click();
    await page.locator("#import-outcomes").waitFor();
    expect(await page.getByRole("status").first().textContent()).toBe(
      "Made 0, skipped 1 imported before, 1 not imported.",
    );
    await capture(page, "import");
    const rows = await page.locator("#import-outcomes tbody tr").allTextContents();
    expect(rows[0]).toBe("Lisbon sync.vttImported beforeOpen");
    expect(rows[1]).toMatch(/^broken\.srtNot importedbroken\.srt cannot be read as SRT/);
    expect((await api("GET", "/v1/notes")).body.items).toHaveLength(2);
  });

  it("takes the form without the page's script, and refuses a batch over its limit before reading it", async () => {
    const cookie = await webSession(server.url, "admin@notula.local");
    const form = await (await fetch(`${server.url}/notes/import`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)![1];
    const post = (files: File[]) => {
      const body = new FormData();
      body.set("csrf", csrf);
      for (const f of files) body.append("files", f);
      return fetch(`${server.url}/notes/import`, { method: "POST", headers: { cookie }, body });
    };
    const plain = await post([new File(["Cyrus  0:03\nWe hired a designer.\n"], "Hiring.txt")]);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain("Made 1, skipped 0 imported before, 0 not imported.");

    const big = await post([new File([new Uint8Array(MAX_IMPORT_FORM_BYTES + 1)], "huge.vtt")]);
    expect(big.status).toBe(413);
    expect(await big.text()).toContain("These files are more than the page takes at once");
    // Without the form's token, nothing is made.
    const forged = new FormData();
    forged.append("files", new File([VTT], "Forged.vtt"));
    const refused = await fetch(`${server.url}/notes/import`, { method: "POST", headers: { cookie }, body: forged });
    expect(refused.status).not.toBe(200);
    expect(((await api("GET", "/v1/notes")).body.items as { title: string }[]).some((n) => n.title === "Forged")).toBe(
      false,
    );
  });
});
