// What a note page must get right for people to trust it, in headless Chromium at
// desktop and phone width, axe-clean: a file uploaded during a meeting is not that
// meeting (it is linked by hand, and the recap says which meeting its people come
// from); who can see a note reads one way everywhere, and a private-folder note goes
// public only once confirmed; an answer's sources and a search's matches open the
// note at their moment; a renamed speaker's name follows into the action items and
// the recap; on a desktop the transcript sits beside the player; and on a phone the
// notes start on the first screen with a calendar connected.
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import path from "node:path";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { admin, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { capture } from "../helpers/page-checks.js";
import { client, type Client } from "../helpers/http.js";
import { tone } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { until } from "../helpers/until.js";
import { vcalendar, vevent } from "../helpers/ics.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

// What page.evaluate's callbacks see (the suite compiles without the DOM library).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = "trust password 1";
const MIN = 60_000;
let server: TestServer;
let api: Client;
let browser: Browser;
let page: Page;
let feed: http.Server;
let stt: VendorServer;
const work = tempDir();

beforeAll(async () => {
  const t = Date.now();
  const body = vcalendar(
    vevent("pricing@acme.example", "Pricing review with Acme", t - 10 * MIN, t + 80 * MIN, [
      "ORGANIZER;CN=Admin:mailto:admin@notula.local",
      "ATTENDEE;CN=Admin:mailto:admin@notula.local",
      "ATTENDEE;CN=Bea Buyer:mailto:bea@customer.example",
    ]),
  );
  feed = http.createServer((_req, res) => res.end(body));
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  stt = await startTranscriptionServer();
  server = await startServer({
    args: ["--no-rate-limit", "--allow-private-calendars", "--stt-engine", "openai", "--stt-url", stt.url],
  });
  api = client(server.url, server.key);
  const added = await api("POST", "/v1/calendars", {
    kind: "ics",
    url: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/work.ics`,
  });
  expect(added.body.calendar.lastError).toBeNull();
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = await launchChromium();
  page = await signedInPage(browser, server.url, "admin@notula.local", PASSWORD);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stt?.close();
  feed?.close();
});

/** A note made of a recording (a tone) whose speech server hears these lines, said at these seconds. */
async function noteWithRecording(title: string, lines: [number, string, string][]) {
  stt.set({
    script: lines.map(([start, speaker, text], i) => ({ start, end: lines[i + 1]?.[0] ?? 40, text, speaker })),
  });
  const id = await uploadRecording(api, tone(work, 40), "wav", { title }, 40);
  const note = await waitForStatus(api, id);
  expect(note.transcripts.length).toBe(lines.length);
  return id;
}

const selectedVisibility = () => page.locator("#visibility option:checked").textContent();
const factsVisibility = () =>
  page.evaluate(() => {
    const dt = [...document.querySelectorAll("dt")].find((d: any) => d.textContent === "Visibility"); // eslint-disable-line @typescript-eslint/no-explicit-any
    return dt?.nextElementSibling?.textContent ?? null;
  });

describe("a note people can trust", () => {
  it("an upload during a meeting is not that meeting; a note is linked by hand, and its recap names the meeting", async () => {
    // An old standup, uploaded in the browser while "Pricing review with Acme" runs.
    await page.goto(`${server.url}/notes/new`);
    const file = path.join(work, "Old standup.wav");
    fs.copyFileSync(tone(work, 2), file);
    await page.getByLabel(/^Recording/).setInputFiles(file);
    await page.getByLabel("Title (optional)").fill("Old standup");
    await page.getByRole("button", { name: "Upload and transcribe" }).click();
    await page.waitForURL(/\/notes\/note_/, { timeout: 30_000 });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Old standup");
    expect(await page.getByText("Recorded for").count()).toBe(0);
    const uploaded = (await api("GET", `/v1/notes/${page.url().split("/notes/")[1]}`)).body.note;
    expect(uploaded.calendarEvent).toBeNull();
    expect(uploaded.participants).toEqual([]);

    // A note that is about that meeting is linked to it by hand.
    const id = (
      await api("POST", "/v1/notes", {
        title: "Acme follow-up",
        summary: "Acme wants a lower price.\n\n- [ ] Send the price list (owner: Admin)",
      })
    ).body.note.id as string;
    await page.goto(`${server.url}/notes/${id}`);
    await page.getByText("Link to a meeting").click();
    await page.getByRole("radio", { name: /Pricing review with Acme/ }).check();
    await capture(page, "note-link-meeting");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.getByText("Linked to “Pricing review with Acme”").waitFor();
    await page.getByText("Recorded for Pricing review with Acme").waitFor();

    // The recap says which meeting its people come from.
    await page.getByRole("link", { name: "Email the recap…" }).click();
    await page.waitForURL(/\/recap$/);
    expect(await page.locator("#recap-meeting").textContent()).toContain("Pricing review with Acme");
    await page.getByText("bea@customer.example, invited to the meeting").waitFor();
    await capture(page, "recap-meeting");

    // Unlinked, the meeting's people go with it.
    await page.goto(`${server.url}/notes/${id}`);
    await page.getByRole("button", { name: "Unlink from this meeting" }).click();
    await page.getByText("Unlinked from the meeting").waitFor();
    const note = (await api("GET", `/v1/notes/${id}`)).body.note;
    expect(note.calendarEvent).toBeNull();
    expect(note.participants.map((p: { email: string }) => p.email)).not.toContain("bea@customer.example");
  }, 120_000);

  it("says who can see a note one way, and makes a private-folder note public only once confirmed", async () => {
    const me = (await api("GET", "/v1/me")).body.user.id;
    const board = (await api("POST", "/v1/folders", { name: "Board", ownerUserId: me, isPrivate: true })).body.folder
      .id as string;
    const id = (await api("POST", "/v1/notes", { title: "Board minutes", folderIds: [board] })).body.note.id as string;
    await page.goto(`${server.url}/notes/${id}`);
    expect(await factsVisibility()).toBe("Only members of “Board”");
    expect(await selectedVisibility()).toBe("Only members of “Board”");

    await page.locator("#visibility").selectOption("public");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("heading", { name: "Make “Board minutes” public?" }).waitFor();
    const warning = (await page.locator("#public-warning").textContent())!;
    expect(warning).toContain("“Board”");
    expect(warning).toContain("without signing in");
    await capture(page, "confirm-public");
    await page.getByRole("link", { name: "Keep it as it is" }).click();
    expect((await api("GET", `/v1/notes/${id}`)).body.note.visibility).toBe("workspace");

    await page.locator("#visibility").selectOption("public");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("button", { name: "Make it public" }).click();
    await page.waitForURL(/\?saved=1$/);
    const note = (await api("GET", `/v1/notes/${id}`)).body.note;
    expect(note.visibility).toBe("public");
    expect(await factsVisibility()).toBe("Public: members of “Board”, and anyone with the link without signing in");
    expect(await selectedVisibility()).toBe(await factsVisibility());
    // What the warning said: the link works for someone who is not signed in.
    expect((await fetch(note.shareUrl)).status).toBe(200);
  }, 60_000);

  it("opens the note at the moment an answer cites, and a search's match, with the player there", async () => {
    const id = await noteWithRecording("Office plans", [
      [0, "Ana", "Good afternoon everyone, thanks for joining."],
      [12, "Ana", "First the hiring plan for the spring."],
      [25, "Ben", "The Lisbon office opens in March with six people."],
      [33, "Ana", "Great, let us close there."],
    ]);
    await until("the transcript indexed", async () => {
      const r = await api("GET", "/v1/search?q=Lisbon&mode=fulltext");
      return r.body.results.some((x: { note: { id: string } }) => x.note.id === id) || null;
    });
    await page.goto(`${server.url}/notes/${id}`);
    await page.locator("#ask-question").fill("When does the Lisbon office open?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const source = page.locator(".ask-live ol.sources a", { hasText: "Ben" }).first();
    await source.waitFor({ timeout: 30_000 });
    expect(await source.getAttribute("href")).toBe(`/notes/${id}#t=25`);
    await source.click();
    await page.waitForURL(new RegExp(`#t=25$`));
    await page.waitForFunction(() => document.querySelector("ol.transcript li.cited"));
    expect(await page.locator("ol.transcript li.cited").textContent()).toContain("Lisbon office opens");
    await page.waitForFunction(() => Math.abs(document.querySelector("audio#player").currentTime - 25) < 0.5);
    const cited = await page.locator("ol.transcript li.cited").boundingBox();
    expect(cited!.y).toBeGreaterThanOrEqual(0);
    expect(cited!.y).toBeLessThan(page.viewportSize()!.height);
    await capture(page, "note-cited");

    // A search's match links the same way.
    await page.goto(`${server.url}/notes?said=${encodeURIComponent("hiring plan")}`);
    await page.locator(`a[href="/notes/${id}#t=12"]`).click();
    await page.waitForFunction(() => document.querySelector("ol.transcript li.cited"));
    expect(await page.locator("ol.transcript li.cited").textContent()).toContain("hiring plan");
    await page.waitForFunction(() => Math.abs(document.querySelector("audio#player").currentTime - 12) < 0.5);
  }, 120_000);

  it("a point of the note cites its moment: its time seeks the player and marks the line said; its task is ticked there", async () => {
    const id = await noteWithRecording("Lease review", [
      [0, "Ana", "Good afternoon everyone, thanks for joining."],
      [10, "Ben", "The Lisbon office opens in March with six people."],
      [22, "Ana", "Ben will send the lease to the lawyers by Friday."],
      [30, "Ana", "Thanks everyone, bye."],
    ]);
    await page.goto(`${server.url}/notes/${id}`);
    // The task, given to Ben (who takes it on), citing the moment it was said.
    const time = page.locator(`a.moment[href="/notes/${id}#t=22"]`);
    await time.waitFor();
    expect(await page.locator("li", { has: time }).first().textContent()).toMatch(
      /Ben will send the lease to the lawyers by Friday\. \(owner: Ben\) \(due: \d{4}-\d\d-\d\d\) 00:22/,
    );
    await time.click();
    await page.waitForURL(new RegExp(`#t=22$`));
    await page.waitForFunction(() => document.querySelector("ol.transcript li.cited"));
    expect(await page.locator("ol.transcript li.cited").textContent()).toContain("send the lease");
    await page.waitForFunction(() => Math.abs(document.querySelector("audio#player").currentTime - 22) < 0.5);
    // The greeting and the goodbye are no point of the note.
    const points = await page.locator("a.moment").evaluateAll((as: any[]) => as.map((a) => a.getAttribute("href"))); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(points).not.toContain(`/notes/${id}#t=0`);
    expect(points).not.toContain(`/notes/${id}#t=30`);
    await capture(page, "note-point-cited");

    // The task is ticked where it is written, and the Action items page has it done.
    const box = page.locator("li", { hasText: "Ben will send the lease" }).locator('input[type="checkbox"]');
    expect(await box.isDisabled()).toBe(false);
    await Promise.all([page.waitForURL(new RegExp(`/notes/${id}$`)), box.check()]);
    expect(
      await page.locator("li", { hasText: "Ben will send the lease" }).locator('input[type="checkbox"]').isChecked(),
    ).toBe(true);
    expect((await api("GET", `/v1/notes/${id}`)).body.note.enhancedNote).toMatch(/^- \[x\] Ben will send the lease/m);
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Action items" }).click();
    await page.waitForURL(/\/action-items$/);
    const done = page.locator("section", { has: page.getByRole("heading", { name: "Done lately" }) });
    expect(await done.textContent()).toContain("Ben will send the lease to the lawyers by Friday.");
    await capture(page, "action-items");
    // Reopened from there, it is open again on the note.
    await Promise.all([
      page.waitForURL(/\/action-items$/),
      done.getByRole("button", { name: /Reopen: Ben will send the lease/ }).click(),
    ]);
    expect(
      await page
        .locator("section", { has: page.getByRole("heading", { name: "Everyone's open items" }) })
        .textContent(),
    ).toContain("Ben will send the lease");
    expect((await api("GET", `/v1/notes/${id}`)).body.note.enhancedNote).toMatch(/^- \[ \] Ben will send the lease/m);
  }, 120_000);

  it("has a renamed speaker's name in the action items and the recap", async () => {
    const id = (
      await api("POST", "/v1/notes", {
        title: "Renewal call",
        participants: [{ name: "Ana Lopez", email: "ana@customer.example" }],
        transcripts: [
          {
            speaker: "Speaker",
            text: "I will send the renewal quote on Friday.",
            startTimestamp: "00:00",
            endTimestamp: "00:10",
          },
          { speaker: "Speaker 2", text: "Thanks, we will review it.", startTimestamp: "00:10", endTimestamp: "00:20" },
        ],
        summary:
          "## Action items\n\n- [ ] Send the renewal quote on Friday (owner: Speaker)\n- [ ] Review the quote (owner: Speaker 2)\n",
      })
    ).body.note.id as string;
    await page.goto(`${server.url}/notes/${id}`);
    await page.getByLabel("Speaker", { exact: true }).fill("Ana Lopez");
    await page.getByRole("button", { name: "Name speakers" }).click();
    await page.waitForURL(/\?saved=1$/);
    const summary = (await page
      .locator("section", { has: page.getByRole("heading", { name: "Summary" }) })
      .textContent())!;
    expect(summary).toContain("Send the renewal quote on Friday (owner: Ana Lopez)");
    expect(summary).toContain("(owner: Speaker 2)");
    expect(summary).not.toContain("(owner: Speaker)");
    await capture(page, "note-renamed-speaker");
    await page.goto(`${server.url}/notes/${id}/recap`);
    expect(await page.getByLabel("The mail's text").textContent()).toContain("(owner: Ana Lopez)");
    // Named back, the marks follow again.
    await page.goto(`${server.url}/notes/${id}`);
    await page.getByLabel("Speaker", { exact: true }).fill("");
    await page.getByRole("button", { name: "Name speakers" }).click();
    await page.waitForURL(/\?saved=1$/);
    expect((await api("GET", `/v1/notes/${id}`)).body.note.summary).toContain("(owner: Speaker)\n");
  }, 120_000);

  it("puts the transcript beside the player on a desktop, and the player first on a phone", async () => {
    const id = await noteWithRecording(
      "Layout check",
      Array.from({ length: 12 }, (_, i) => [
        i * 3,
        i % 2 ? "Ben" : "Ana",
        `Line ${i + 1} of the meeting, said for the layout.`,
      ]) as [number, string, string][],
    );
    await page.goto(`${server.url}/notes/${id}`);
    const player = (await page.locator("audio#player").boundingBox())!;
    const transcript = (await page.locator("section.note-transcript").boundingBox())!;
    const summary = (await page.getByRole("heading", { name: "Summary" }).boundingBox())!;
    // Beside: the player and the transcript share the right column, the text the left.
    expect(transcript.x).toBeGreaterThan(summary.x + 300);
    expect(Math.abs(transcript.x - player.x)).toBeLessThan(40);
    expect(transcript.y).toBeLessThan(900);
    expect(player.y).toBeLessThan(transcript.y);
    // The title, then what was said and decided: the facts are one line under the title,
    // and asking the meeting, its calendar event and its files come after the note.
    expect(summary.y).toBeLessThan(400);
    const ask = (await page.getByText("Ask this meeting", { exact: true }).boundingBox())!;
    expect(ask.y).toBeGreaterThan((await page.getByRole("heading", { name: "Enhanced note" }).boundingBox())!.y);
    await capture(page, "note-beside");

    const phone = await page
      .context()
      .browser()!
      .newContext({ viewport: { width: 390, height: 844 } });
    await phone.addCookies(await page.context().cookies());
    const small = await phone.newPage();
    await small.goto(`${server.url}/notes/${id}`);
    const p = (await small.locator("audio#player").boundingBox())!;
    const s = (await small.getByRole("heading", { name: "Summary" }).boundingBox())!;
    const tr = (await small.locator("section.note-transcript").boundingBox())!;
    expect(p.y).toBeLessThan(s.y);
    expect(s.y).toBeLessThan(tr.y);
    // A time far down the transcript plays it, and the player comes into view with it:
    // docked at the window's foot, its play/pause and time within reach, the line above it.
    const last = small.locator("ol.transcript li").last();
    await last.locator("button.at").click();
    await small.locator(".player-bar.docked").waitFor();
    const docked = (await small.locator("audio#player").boundingBox())!;
    expect(docked.y).toBeGreaterThanOrEqual(0);
    expect(docked.y + docked.height).toBeLessThanOrEqual(844);
    const line = (await last.boundingBox())!;
    expect(line.y + line.height).toBeLessThanOrEqual(docked.y + 1);
    // It stays in view while the page scrolls back to the top, and nothing is hidden under it at the foot.
    await small.evaluate("window.scrollTo(0, 0)");
    const top = (await small.locator("audio#player").boundingBox())!;
    expect(top.y + top.height).toBeLessThanOrEqual(844);
    expect(top.y).toBeGreaterThan(600);
    await capture(small, "note-player-docked-phone");
    await phone.close();
  }, 120_000);

  it("on a phone with a calendar connected, the first note is on the first screen and each tool is one tap away", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await phone.addCookies(await page.context().cookies());
    const small = await phone.newPage();
    await small.goto(`${server.url}/notes`);
    const first = (await small.locator("ul.notes li").first().boundingBox())!;
    expect(first.y + first.height).toBeLessThan(844);
    for (const [tool, inside] of [
      ["Coming up", "Pricing review with Acme"],
      ["Find", "What was said"],
      ["Ask", "Ask your meetings"],
    ]) {
      const summary = small.locator("details.fold > summary", { hasText: tool });
      await summary.click();
      expect(await small.locator("details.fold[open]").textContent()).toContain(inside);
      await summary.click();
    }
    await capture(small, "notes-phone-calendar");
    await phone.close();
    // On a desktop every tool is open at once.
    await page.goto(`${server.url}/notes`);
    expect(await page.locator("details.fold:not([open])").count()).toBe(0);
    expect(await page.locator("#ask-question").isVisible()).toBe(true);
  }, 60_000);
  it("the smaller things: the page's length is the player's, a search's address holds only what was asked, hints where people type", async () => {
    stt.set({ script: [{ start: 0, end: 10, text: "A short one.", speaker: "Ana" }] });
    const id = await uploadRecording(api, tone(work, 10.6), "wav", { title: "Ten and a bit" }, 11);
    await waitForStatus(api, id);
    await page.goto(`${server.url}/notes/${id}`);
    await page.waitForFunction(() => document.querySelector("audio#player").readyState >= 1);
    const playerSec = await page.evaluate(() => Math.floor(document.querySelector("audio#player").duration));
    expect(playerSec).toBe(10);
    expect(
      await page.evaluate(
        () =>
          [...document.querySelectorAll("dt")].find((d: any) => d.textContent === "Duration")
            ?.nextElementSibling // eslint-disable-line @typescript-eslint/no-explicit-any
          ?.textContent,
      ),
    ).toBe("10 s");

    await page.goto(`${server.url}/notes`);
    await page.getByLabel("What was said").fill("short");
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await page.waitForURL(/\/notes\?/);
    expect(new URL(page.url()).search).toBe("?said=short");

    await page.goto(`${server.url}/notes/new`);
    expect(await page.locator("#record").getByLabel("Participant 1").getAttribute("placeholder")).toContain(
      "<ana@acme.example>",
    );

    await page.goto(`${server.url}/settings/folders`);
    await page.getByLabel("Name", { exact: true }).fill("Planning");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByText("Folder “Planning” created.").waitFor();
  }, 60_000);

  it("corrects a transcript line from the keyboard; search then finds the corrected word and not the misheard one", async () => {
    const id = await noteWithRecording("Menu review", [
      [0, "Ana", "The menu from Jon Snow is ready for testing."],
      [10, "Ben", "We test it with customers on Friday."],
    ]);
    await page.goto(`${server.url}/notes/${id}`);
    const line = page.locator("ol.transcript li[data-line]").first();
    await line.focus();
    await page.keyboard.press("Enter");
    const input = line.locator("input.line-edit");
    await input.waitFor();
    expect(await input.inputValue()).toBe("The menu from Jon Snow is ready for testing.");
    // Esc leaves the line as it was.
    await input.fill("Something else entirely.");
    await page.keyboard.press("Escape");
    expect(await line.locator(".said").textContent()).toBe("The menu from Jon Snow is ready for testing.");
    expect(await page.evaluate(() => document.activeElement?.dataset?.line)).toBe(await line.getAttribute("data-line"));
    // Enter edits, Enter saves.
    await page.keyboard.press("Enter");
    await input.fill("The menu from John Snow is ready for testing.");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await line.getAttribute("data-version")).toBe("1");
    await page.reload();
    expect(await page.locator("ol.transcript li[data-line] .said").first().textContent()).toBe(
      "The menu from John Snow is ready for testing.",
    );
    // Search finds the moment by the corrected word, and nothing by the misheard one.
    await page.goto(`${server.url}/notes?said=John`);
    expect(await page.locator(`a[href^="/notes/${id}#t="]`).count()).toBeGreaterThan(0);
    await page.goto(`${server.url}/notes?said=Jon`);
    expect(await page.locator(`a[href^="/notes/${id}"]`).count()).toBe(0);

    // An edit from a page that is out of date is refused, and the page shows the line as it is now.
    await page.goto(`${server.url}/notes/${id}`);
    const [first] = (await api("GET", `/v1/notes/${id}`)).body.note.transcripts;
    expect(
      (
        await api("PATCH", `/v1/notes/${id}/transcript/${first.id}`, {
          version: 1,
          text: "The menu from John Snow is done.",
        })
      ).status,
    ).toBe(200);
    const stale = page.locator("ol.transcript li[data-line]").first();
    await stale.dblclick();
    await stale.locator("input.line-edit").fill("The menu is late.");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "changed meanwhile" }).waitFor();
    expect(await stale.locator(".said").textContent()).toBe("The menu from John Snow is done.");
    expect(await stale.getAttribute("data-version")).toBe("2");
    // The share page shows no way to edit.
    const share = await api("PATCH", `/v1/notes/${id}`, { visibility: "public" });
    const shared = await fetch(share.body.note.shareUrl as string).then((r) => r.text());
    expect(shared).not.toContain("data-line");
    expect(shared).not.toContain("line-edit");
  }, 120_000);

  it("corrects the summary from the Edit form; enhancing then asks before replacing it", async () => {
    const id = await noteWithRecording("Budget review", [
      [0, "Ana", "We decided to cut the travel budget by a third."],
      [10, "Ben", "I will tell the team on Monday."],
    ]);
    await page.goto(`${server.url}/notes/${id}`);
    await page.getByText("Correct the summary and the enhanced note").click();
    await page.getByLabel("Summary (Markdown)").fill("Travel budget cut by a third; Ben tells the team Monday.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForURL(/saved=1/);
    expect(await page.getByText("Travel budget cut by a third; Ben tells the team Monday.").count()).toBeGreaterThan(0);
    const note = (await api("GET", `/v1/notes/${id}`)).body.note;
    expect(note.textEditedAt).not.toBeNull();
    // Saving the form again without touching them is no edit of the summary.
    const before = note.textEditedAt;
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForURL(/saved=1/);
    expect((await api("GET", `/v1/notes/${id}`)).body.note.textEditedAt).toBe(before);
    // Enhancing asks first: the box to tick is required.
    const replace = page.getByLabel(/replacing the edited ones/).first();
    expect(await replace.getAttribute("required")).not.toBeNull();
    await page.getByRole("button", { name: "Enhance" }).click();
    expect(page.url()).toMatch(/saved=1/);
    await replace.check();
    await page.getByRole("button", { name: "Enhance" }).click();
    // Written anew: the note is the machine's again once the enhancing has finished.
    await until("the note written anew", async () => {
      const n = (await api("GET", `/v1/notes/${id}`)).body.note;
      return n.status === "completed" && n.textEditedAt === null;
    });
  }, 120_000);
});
