// The team web app in headless Chromium, as people use it: the first admin sets a
// password from the start-up link, invites a member, who joins, signs in and makes
// an API key that the CLI then uses; a recording uploaded in the browser becomes a
// transcript whose times move the player; share links open signed out and die with
// publicity; forged forms and other workspaces' notes get nothing. Every page is
// checked with axe-core and photographed at desktop and phone width.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, speak } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";
import { client, type Client } from "../helpers/http.js";
import { admin, ROOT, run, startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { ARTIFACTS, capture, expectAccessible } from "../helpers/page-checks.js";

// What page.evaluate's callbacks see: the browser's globals (the suite compiles without the DOM library).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any
type HTMLAudioElement = { currentTime: number; readyState: number };

const ADMIN_PASSWORD = "admin password 1";
const expectedDialogs: string[] = [];
const MEMBER_PASSWORD = "member password 2";

let server: TestServer;
let browser: Browser;
let api: Client;
let adminContext: BrowserContext;
let adminPage: Page;
const work = tempDir("notula-web-");

async function newContext(): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 } });
}

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer({
    args: ["--no-rate-limit", "--stt-engine", "sphinx", "--allow-private-webhooks", "--max-upload-bytes", "2000000"],
  });
  api = client(server.url, server.key);
  browser = await launchChromium(["--autoplay-policy=no-user-gesture-required"]);
  adminContext = await newContext();
  adminPage = await adminContext.newPage();
  // A destructive action asks first: the test says which question it expects, and agrees.
  adminPage.on("dialog", (d) => {
    if (expectedDialogs.shift() !== d.message()) throw new Error(`unexpected dialog: ${d.message()}`);
    void d.accept();
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the web app", () => {
  it("first run: the start-up link sets the admin's password and signs in; sign out and in again", async () => {
    expect(server.setupUrl).toMatch(/\/account\/password\//);
    const page = adminPage;
    await page.goto(server.setupUrl!);
    await capture(page, "setup");
    await page.getByLabel("New password (at least 8 characters)").fill(ADMIN_PASSWORD);
    await page.getByLabel("The same password again").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await page.waitForURL(/\/notes$/);
    await expect(page.getByRole("heading", { name: "Notes" }).isVisible()).resolves.toBe(true);
    // The link works once.
    const again = await fetch(server.setupUrl!);
    expect(again.status).toBe(404);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in/);
    await capture(page, "sign-in");
    // A wrong password and an unknown email read the same.
    await page.getByLabel("Email").fill("admin@notula.local");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const wrong = await page.getByRole("alert").textContent();
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toBe(wrong);
    expect(wrong).toBe("Wrong email or password.");

    // Signed out, a page sends you to sign in and back.
    await page.goto(`${server.url}/settings/account`);
    await page.waitForURL(/\/sign-in\?next=%2Fsettings%2Faccount/);
    await page.getByLabel("Email").fill("admin@notula.local");
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/settings\/account$/);
    await capture(page, "account");
  });

  it("the admin invites a member, who joins, signs in, makes an API key, and the CLI works with it", async () => {
    const page = adminPage;
    await page.goto(`${server.url}/settings/members`);
    await page.getByLabel("Email (leave empty for a link anyone can use)").fill("mira@example.com");
    await page.getByRole("button", { name: "Create invite link" }).click();
    const inviteUrl = (await page.locator("#one-time-link").textContent())!;
    expect(inviteUrl).toMatch(/\/invite\//);
    await capture(page, "members");

    const memberContext = await newContext();
    const member = await memberContext.newPage();
    await member.goto(inviteUrl);
    await member.getByLabel("Name").fill("Mira <b>Member</b>");
    await member.getByLabel("Password (at least 8 characters)").fill(MEMBER_PASSWORD);
    await member.getByLabel("The same password again").fill(MEMBER_PASSWORD);
    await member.getByRole("button", { name: "Join" }).click();
    await member.waitForURL(/\/notes$/);
    expect(await member.getByRole("status").first().textContent()).toContain("you have joined");
    // The name is text, never markup.
    expect(await member.locator("header .who span").textContent()).toContain("Mira <b>Member</b>");

    await member.locator("header details.settings-menu > summary").click();
    await member.getByRole("link", { name: "API keys" }).click();
    // A member may not give a key the users scope: it is not offered.
    expect(await member.getByRole("checkbox", { name: /users/ }).count()).toBe(0);
    await member.getByLabel("Name").fill("laptop CLI");
    await member.getByRole("checkbox", { name: /folders/ }).check();
    await member.getByRole("button", { name: "Create key" }).click();
    const key = (await member.locator("#new-key").textContent())!;
    expect(key).toMatch(/^ntl_/);
    await capture(member, "keys");

    const cli = await run(["me", "--json"], {
      env: { NOTULA_URL: server.url, NOTULA_API_KEY: key, XDG_CONFIG_HOME: work },
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      user: { email: "mira@example.com", name: "Mira <b>Member</b>" },
      scopes: ["notes", "folders"],
    });

    // The key page lists it with its last use; revoking it ends it.
    await member.goto(`${server.url}/settings/keys`);
    const row = member.getByRole("row", { name: /laptop CLI/ });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).not.toContain("never");
    const asked = new Promise<string>((resolve) =>
      member.once("dialog", (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await member.getByRole("button", { name: "Revoke laptop CLI" }).click();
    expect(await asked).toBe("Revoke the key laptop CLI? Whatever uses it stops working.");
    await member.waitForURL(/\/settings\/keys$/);
    expect(await member.getByRole("status").first().textContent()).toContain("The key is revoked.");
    const after = await run(["me"], { env: { NOTULA_URL: server.url, NOTULA_API_KEY: key, XDG_CONFIG_HOME: work } });
    expect(after.code).toBe(4);
    await memberContext.close();
  });

  it("a recording uploaded in the browser is transcribed; clicking a segment moves the player", async () => {
    const page = adminPage;
    await page.goto(`${server.url}/notes/new`);
    await capture(page, "new-note");
    const recording = convert(
      speak(work, "Welcome to the quarterly planning meeting. We agreed to ship the new release next week."),
      "wav",
    );
    await page.getByLabel(/^Recording/).setInputFiles(recording);
    await page.getByLabel("Title (optional)").fill("Planning <script>alert(1)</script>");
    await page.locator("#upload").getByLabel("Participant 1").fill("Ana Silva <ana@acme.example>");
    await page.locator("#upload").getByLabel("Participant 2").fill("Ben");
    // The page measures the file before asking for an upload URL: its real length, not a placeholder.
    const asked = page.waitForRequest((r) => r.url().endsWith("/notes/upload-url") && r.method() === "POST");
    const consoleErrors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text())));
    await page.getByRole("button", { name: "Upload and transcribe" }).click();
    const spoken = Number(
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", recording]),
    );
    expect((await asked).postDataJSON().duration).toBe(Math.ceil(spoken));
    expect(consoleErrors.filter((e) => /Content Security Policy|media-src/i.test(e))).toEqual([]);
    await page.waitForURL(/\/notes\/note_/, { timeout: 30_000 });
    // The page follows processing by itself until the transcript is there.
    await page.getByRole("heading", { name: "Transcript" }).waitFor({ timeout: 90_000 });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Planning <script>alert(1)</script>");
    // Who was there, typed on the upload form.
    await page.getByText("Ana Silva <ana@acme.example>, Ben").waitFor();
    const text = (await page.locator("ol.transcript").textContent())!.toLowerCase();
    expect(text).toMatch(/planning|meeting|release/);
    await capture(page, "note");

    const player = page.locator("audio#player");
    await page.waitForFunction(() => (document.querySelector("audio#player") as HTMLAudioElement).readyState >= 1);
    const buttons = page.locator("ol.transcript button.at");
    const last = buttons.nth((await buttons.count()) - 1);
    const start = Number(await last.evaluate((b) => b.closest("li")!.getAttribute("data-start")));
    await last.click();
    await page.waitForFunction(
      (s) => (document.querySelector("audio#player") as HTMLAudioElement).currentTime >= s,
      start,
    );
    expect(await player.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(start);

    // A search for words said there links to the moment (#t=SECONDS): the note opens
    // at that segment, marked, with the player at its time.
    const rows = page.locator("ol.transcript li");
    const target = (await rows.count()) - 1;
    const words = (await rows.nth(target).textContent())!
      .replace(/^[\d:]+/, "")
      .replace(/^\s*\w+:/, "")
      .split(/\s+/);
    const said = words.filter((w) => /^[a-z]{4,}$/i.test(w)).pop()!;
    const targetStart = Number(await rows.nth(target).getAttribute("data-start"));
    await page.goto(`${server.url}/notes?said=${encodeURIComponent(said)}`);
    const moment = page.locator(`a[href$="#t=${targetStart}"]`).first();
    await moment.click();
    await page.waitForURL(new RegExp(`#t=${targetStart}$`));
    await page.waitForFunction(() => document.querySelector("ol.transcript li.cited"));
    expect(await page.evaluate(() => document.querySelector("ol.transcript li.cited")?.id)).toBe(`segment-${target}`);
    const box = await page.locator(`#segment-${target}`).boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(page.viewportSize()!.height);
    await page.screenshot({ path: path.join(ARTIFACTS, "web-note-moment-desktop.png") });
    const at = Number(await page.locator(`#segment-${target}`).getAttribute("data-start"));
    await page.waitForFunction(
      (s) => Math.abs((document.querySelector("audio#player") as HTMLAudioElement).currentTime - s) < 0.5,
      at,
    );
    // Played on elsewhere, then the moment's link followed again: back to its time.
    await page.evaluate(() => {
      (document.querySelector("audio#player") as HTMLAudioElement).currentTime = 2.5;
      document.location.hash = "#top";
    });
    await page.waitForFunction(() => (document.querySelector("audio#player") as HTMLAudioElement).currentTime >= 2);
    await page.evaluate((t) => (document.location.hash = `#segment-${t}`), target);
    await page.waitForFunction(
      (s) => Math.abs((document.querySelector("audio#player") as HTMLAudioElement).currentTime - s) < 0.5,
      at,
    );

    // The audio answers ranges, as seeking needs.
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const cookie = (await adminContext.cookies()).find((c) => c.name === "notula_session")!;
    const ranged = await fetch(`${server.url}/notes/${id}/audio`, {
      headers: { cookie: `notula_session=${cookie.value}`, range: "bytes=10-19" },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toMatch(/^bytes 10-19\/\d+$/);
    expect((await ranged.arrayBuffer()).byteLength).toBe(10);
  });

  it("an upload without a title leaves naming to the server, never the file's name", async () => {
    const page = adminPage;
    await page.goto(`${server.url}/notes/new`);
    const file = path.join(work, "Weekly sync.wav");
    fs.copyFileSync(convert(speak(work, "Hello."), "wav"), file);
    await page.getByLabel(/^Recording/).setInputFiles(file);
    // What the page asks the server to make, caught before a note is made.
    let asked: { title?: string } | undefined;
    await page.route("**/notes/from-upload", (route) => {
      asked = route.request().postDataJSON();
      return route.fulfill({ status: 400, json: { error: { message: "Held by the test." } } });
    });
    await page.getByLabel(/Its two channels are me/).check();
    await page.getByRole("button", { name: "Upload and transcribe" }).click();
    await page.getByText("Held by the test.").waitFor();
    await page.unroute("**/notes/from-upload");
    expect(asked).toBeDefined();
    expect(asked?.title).toBeUndefined();
    expect((asked as { channels?: string[] } | undefined)?.channels).toEqual(["me", "others"]);
  });

  it("an unsupported or oversize file says so on the page and makes no note", async () => {
    const page = adminPage;
    const before = (await api("GET", "/v1/notes?limit=100")).body.items.length;
    await page.goto(`${server.url}/notes/new`);
    expect(await page.getByText("up to 1.9 MB").count()).toBe(1);
    const text = path.join(work, "minutes.txt");
    fs.writeFileSync(text, "not a recording");
    await page.getByLabel(/^Recording/).setInputFiles(text);
    await page.getByRole("button", { name: "Upload and transcribe" }).click();
    await page.getByText(/Unsupported file type: use m4a, mp3, wav, aac/).waitFor();
    const big = path.join(work, "long.wav");
    fs.writeFileSync(big, Buffer.alloc(2_500_000));
    await page.getByLabel(/^Recording/).setInputFiles(big);
    await page.getByRole("button", { name: "Upload and transcribe" }).click();
    await page.getByText(/larger than the 1\.9 MB this server accepts/).waitFor();
    expect(page.url()).toMatch(/\/notes\/new$/);
    expect((await api("GET", "/v1/notes?limit=100")).body.items.length).toBe(before);
  });

  it("lists and finds notes: title search, what was said, filters kept across pages", async () => {
    for (let i = 0; i < 27; i++)
      await api("POST", "/v1/notes", {
        title: `Standup ${i}`,
        userWrittenNote: i === 3 ? "We talked about the **zeppelin** budget." : "",
      });
    const page = adminPage;
    await page.goto(`${server.url}/notes`);
    await capture(page, "notes");
    await page.getByLabel("Title").fill("standup");
    await page.getByRole("button", { name: "Find" }).click();
    expect(await page.locator("ul.notes li").count()).toBe(25);
    await page.getByRole("link", { name: "Older →" }).click();
    expect(page.url()).toContain("search=standup");
    expect(await page.locator("ul.notes li").count()).toBe(2);
    await page.goto(`${server.url}/notes?said=zeppelin`);
    expect(await page.locator("ul.notes li").count()).toBe(1);
    expect(await page.locator("mark").first().textContent()).toMatch(/zeppelin/i);
    // The delete confirmation names the note, and the not-found page reads well too.
    const standup = (await api("GET", "/v1/notes?search=standup&limit=1")).body.items[0];
    await page.goto(`${server.url}/notes/${standup.id}/delete`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Delete “${standup.title}”?`);
    await capture(page, "delete-note");
    await page.goto(`${server.url}/notes/note_missing`);
    await capture(page, "not-found");
    const bad = await page.goto(`${server.url}/notes?fromDate=yesterday`);
    expect(bad!.status()).toBe(400);
    expect(await page.getByRole("alert").textContent()).toMatch(/fromDate/);
  });

  it("shares from the Share button by the title: who reads it, the link, what it shows, and stopping; at a phone's width too", async () => {
    const id = (
      await api("POST", "/v1/notes", {
        title: "Shared from the panel",
        summary: "Pricing settled.",
        transcripts: [
          { speaker: "Ana", text: "The panel transcript line.", startTimestamp: "00:01", endTimestamp: "00:04" },
        ],
      })
    ).body.note.id;
    const page = adminPage;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${server.url}/notes/${id}`);
      const share = page.locator("#share > summary");
      const box = (await share.boundingBox())!;
      expect(box.y + box.height).toBeLessThan(844);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await share.click();
      await page.locator("#share").getByText("Everyone in the workspace.").waitFor();
      await page.getByRole("button", { name: "Get a link anyone can open" }).click();
      await page.getByText("Anyone with the link can read it now.").waitFor();
      await share.click();
      const link = (await page.locator("#share-panel-url").textContent())!;
      expect(link).toBe((await api("GET", `/v1/notes/${id}`)).body.note.shareUrl);
      const panel = (await page.locator("#share > .panel").boundingBox())!;
      expect(panel.x).toBeGreaterThanOrEqual(0);
      expect(panel.x + panel.width).toBeLessThanOrEqual(390);
      const anonymous = await newContext();
      const visitor = await anonymous.newPage();
      expect((await visitor.goto(link))!.status()).toBe(200);
      expect(await visitor.textContent("body")).toContain("The panel transcript line.");
      // What the link shows, then no link at all.
      await page.locator("#share").getByRole("checkbox", { name: "The link shows the transcript" }).uncheck();
      await page.locator("#share").getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved what the link shows.").waitFor();
      await visitor.reload();
      expect(await visitor.textContent("body")).not.toContain("The panel transcript line.");
      // A note without a recording offers none to play.
      await share.click();
      expect(await page.locator("#share").getByRole("checkbox", { name: "The link plays the recording" }).count()).toBe(
        0,
      );
      await page.getByRole("button", { name: "Stop sharing" }).click();
      await page.getByText("The link no longer works.").waitFor();
      expect((await visitor.goto(link))!.status()).toBe(404);
      expect((await api("GET", `/v1/notes/${id}`)).body.note.visibility).toBe("workspace");
      await anonymous.close();
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("a share link plays the recording only when its owner says so, and seeks from its transcript; never once stopped", async () => {
    const u = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 5 });
    await fetch(u.body.presignedUrl, {
      method: "PUT",
      body: fs.readFileSync(speak(work, "We agreed to share the recording with the customer.")),
      headers: { "content-type": u.body.contentType },
    });
    const id = (await api("POST", "/v1/notes/from-audio", { audioUrl: u.body.audioUrl, title: "Played from the link" }))
      .body.noteId;
    expect((await waitForStatus(api, id, ["completed"], 120_000)).status).toBe("completed");
    await api("PATCH", `/v1/notes/${id}`, { visibility: "public" });
    const link = (await api("GET", `/v1/notes/${id}`)).body.note.shareUrl as string;
    const page = adminPage;
    await page.goto(`${server.url}/notes/${id}`);
    const anonymous = await newContext();
    const visitor = await anonymous.newPage();
    // Not until the owner says so: no player, and the recording's address answers nothing.
    await visitor.goto(link);
    expect(await visitor.locator("audio").count()).toBe(0);
    expect((await fetch(`${link}/audio`)).status).toBe(404);
    await page.locator("#share > summary").click();
    await page.locator("#share").getByRole("checkbox", { name: "The link plays the recording" }).check();
    await page.locator("#share").getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved what the link shows.").waitFor();
    await visitor.reload();
    const duration = await visitor.evaluate(async () => {
      const a = document.querySelector("audio#player") as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (a.readyState < 1) await new Promise((r) => a.addEventListener("loadedmetadata", r, { once: true }));
      return a.duration;
    });
    expect(duration).toBeGreaterThan(1);
    const part = await fetch(`${link}/audio`, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("cache-control")).toMatch(/^private/);
    // Its transcript's times seek the player.
    expect(await visitor.locator("ol.transcript button, ol.transcript a").count()).toBeGreaterThan(0);
    // Stopped: neither the page nor the recording.
    await api("PATCH", `/v1/notes/${id}`, { visibility: "workspace" });
    expect((await fetch(`${link}/audio`)).status).toBe(404);
    expect((await visitor.goto(link))!.status()).toBe(404);
    await anonymous.close();
  }, 180_000);

  it("a share link opens signed out, without the transcript if the owner says so, and dies with publicity", async () => {
    const created = await api("POST", "/v1/notes", {
      title: "Board <img src=x onerror=alert(1)>",
      summary: "Revenue grew. <script>alert(2)</script>",
      userWrittenNote: "[click](javascript:alert(3)) and <iframe src=x></iframe>",
      transcripts: [
        { speaker: "Ana", text: "The secret transcript line.", startTimestamp: "00:01", endTimestamp: "00:04" },
      ],
    });
    const id = created.body.note.id;
    expect(created.body.note.shareUrl).toBeNull();
    const page = adminPage;
    await page.goto(`${server.url}/notes/${id}`);
    expect(await page.locator(".markdown a[href^='javascript']").count()).toBe(0);
    expect(await page.locator(".markdown iframe, .markdown script").count()).toBe(0);
    await page.getByLabel("Visibility").selectOption("public");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/saved=1/);
    const shareUrl = (await page.locator("#share-url").textContent())!;
    expect(shareUrl).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{22}$`));
    expect((await api("GET", `/v1/notes/${id}`)).body.note.shareUrl).toBe(shareUrl);

    const anonymous = await newContext();
    const visitor = await anonymous.newPage();
    visitor.on("dialog", (d) => {
      throw new Error(`unexpected dialog: ${d.message()}`);
    });
    const res = await visitor.goto(shareUrl);
    expect(res!.status()).toBe(200);
    expect(await visitor.getByRole("heading", { level: 1 }).textContent()).toBe("Board <img src=x onerror=alert(1)>");
    expect(await visitor.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
    expect(await visitor.textContent("body")).toContain("The secret transcript line.");
    await capture(visitor, "share");

    await page.getByRole("checkbox", { name: /Show the transcript/ }).uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/saved=1/);
    await visitor.reload();
    expect(await visitor.textContent("body")).not.toContain("The secret transcript line.");

    await page.getByLabel("Visibility").selectOption("workspace");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/saved=1/);
    expect((await visitor.goto(shareUrl))!.status()).toBe(404);
    // Public again: a new link; the old one stays dead.
    await api("PATCH", `/v1/notes/${id}`, { visibility: "public" });
    const renewed = (await api("GET", `/v1/notes/${id}`)).body.note.shareUrl;
    expect(renewed).not.toBe(shareUrl);
    expect((await visitor.goto(shareUrl))!.status()).toBe(404);
    await anonymous.close();
  });

  it("a form without its CSRF token is refused and changes nothing; another workspace's note is 404", async () => {
    const note = (await api("POST", "/v1/notes", { title: "Keep me" })).body.note;
    const cookie = (await adminContext.cookies()).find((c) => c.name === "notula_session")!;
    const headers = { cookie: `notula_session=${cookie.value}`, "content-type": "application/x-www-form-urlencoded" };
    for (const body of ["", "csrf=forged"]) {
      const r = await fetch(`${server.url}/notes/${note.id}/delete`, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
      });
      expect(r.status).toBe(403);
      const renamed = await fetch(`${server.url}/notes/${note.id}`, {
        method: "POST",
        headers,
        body: `${body}&title=Hacked&visibility=public`,
        redirect: "manual",
      });
      expect(renamed.status).toBe(403);
    }
    const kept = (await api("GET", `/v1/notes/${note.id}`)).body.note;
    expect(kept).toMatchObject({ title: "Keep me", visibility: "workspace" });
    const keyForm = await fetch(`${server.url}/settings/keys`, {
      method: "POST",
      headers,
      body: "name=sneaky&scopes=notes",
      redirect: "manual",
    });
    expect(keyForm.status).toBe(403);

    const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Other"]);
    const foreign = (await client(server.url, other.key)("POST", "/v1/notes", { title: "Not yours" })).body.note;
    for (const suffix of ["", "/audio", "/status", "/delete"]) {
      const r = await adminPage.goto(`${server.url}/notes/${foreign.id}${suffix}`);
      expect(r!.status(), suffix).toBe(404);
    }
    const del = await fetch(`${server.url}/notes/${foreign.id}/delete`, {
      method: "POST",
      headers,
      body: `csrf=${encodeURIComponent(await adminPage.locator('meta[name="csrf-token"]').getAttribute("content").then(String))}`,
      redirect: "manual",
    });
    expect(del.status).toBe(404);
    expect((await client(server.url, other.key)("GET", `/v1/notes/${foreign.id}`)).status).toBe(200);
  });

  it("an admin changes a role and removes a member: their key, session and access end at once; the last admin stays", async () => {
    const ws = (await api("GET", "/v1/me")).body.workspace.id;
    await admin(
      server.dataDir,
      ["users", "create", "--workspace", ws, "--email", "leo@example.com", "--name", "Leo", "--password-stdin"],
      "leo password 1",
    );
    const leoContext = await newContext();
    const leo = await leoContext.newPage();
    await leo.goto(`${server.url}/sign-in`);
    await leo.getByLabel("Email").fill("leo@example.com");
    await leo.getByLabel("Password").fill("leo password 1");
    await leo.getByRole("button", { name: "Sign in" }).click();
    await leo.waitForURL(/\/notes$/);
    // Members see no members page.
    expect(await leo.getByRole("link", { name: "Members" }).count()).toBe(0);
    expect((await leo.goto(`${server.url}/settings/members`))!.status()).toBe(403);
    await leo.goto(`${server.url}/settings/keys`);
    await leo.getByLabel("Name").fill("leo key");
    await leo.getByRole("button", { name: "Create key" }).click();
    const key = (await leo.locator("#new-key").textContent())!;
    expect((await client(server.url, key)("GET", "/v1/me")).status).toBe(200);

    const page = adminPage;
    await page.goto(`${server.url}/settings/members`);
    // The only admin cannot step down.
    await page.getByLabel("Role of Admin", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Save the role of Admin", exact: true }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/at least one admin/);
    await page.goto(`${server.url}/settings/members`);
    await page.getByLabel("Role of Leo", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Save the role of Leo" }).click();
    await page.waitForURL(/\/settings\/members$/);
    expect(await page.getByLabel("Role of Leo", { exact: true }).inputValue()).toBe("admin");

    await page.getByRole("link", { name: "Remove Leo" }).click();
    await capture(page, "remove-member");
    await page.getByRole("button", { name: "Remove Leo" }).click();
    await page.waitForURL(/\/settings\/members$/);
    expect(await page.getByRole("cell", { name: "leo@example.com" }).count()).toBe(0);
    expect((await client(server.url, key)("GET", "/v1/me")).status).toBe(401);
    await leo.goto(`${server.url}/notes`);
    await leo.waitForURL(/\/sign-in/);
    await leoContext.close();
  });

  it("a note in a private folder does not exist for an admin outside the folder: no page, no form, no change", async () => {
    const ws = (await api("GET", "/v1/me")).body.workspace.id;
    const nina = await admin(server.dataDir, [
      "users",
      "create",
      "--workspace",
      ws,
      "--email",
      "nina@example.com",
      "--name",
      "Nina",
    ]);
    const key = (
      await admin(server.dataDir, ["keys", "create", "--name", "nina", "--user", nina.user.id, "--workspace", ws])
    ).key;
    const ninaApi = client(server.url, key);
    const folder = (
      await ninaApi("POST", "/v1/folders", { name: "Nina's private", ownerUserId: nina.user.id, isPrivate: true })
    ).body.folder;
    const note = (await ninaApi("POST", "/v1/notes", { title: "Filed privately", folderIds: [folder.id] })).body.note;
    const page = adminPage;
    const res = await page.goto(`${server.url}/notes/${note.id}`);
    expect(res?.status()).toBe(404);
    expect(await page.content()).not.toContain("Filed privately");
    expect(await page.content()).not.toContain("Nina&#39;s private");
    await page.goto(`${server.url}/notes`);
    expect(await page.getByRole("link", { name: "Filed privately" }).count()).toBe(0);
    const after = (await ninaApi("GET", `/v1/notes/${note.id}`)).body.note;
    expect(after.title).toBe("Filed privately");
    expect(after.tags.map((t: { id: string }) => t.id)).toEqual([folder.id]);
  });

  it("a note being transcribed shows how far it has come, and follows it without a reload", async () => {
    const id = (await api("POST", "/v1/notes", { title: "Long recording" })).body.note.id;
    // As the pipeline leaves a note mid-way through a long recording.
    await storeQuery(
      server.dataDir,
      "UPDATE notes SET status = 'transcript-processing', processing_progress = 40 WHERE id = ?",
      id,
    );
    const page = adminPage;
    await page.goto(`${server.url}/notes/${id}`);
    const badge = page.getByRole("status");
    expect(await badge.textContent()).toBe("transcribing 40%");
    await capture(page, "note-processing");
    await storeQuery(server.dataDir, "UPDATE notes SET processing_progress = 70 WHERE id = ?", id);
    await page.waitForFunction(
      () => document.querySelector("[data-poll-status]")?.textContent === "transcribing 70%",
      undefined,
      { timeout: 10_000 },
    );
    await storeQuery(
      server.dataDir,
      "UPDATE notes SET status = 'completed', processing_progress = NULL WHERE id = ?",
      id,
    );
  });

  it("a note is enhanced with another template and its speakers are named from its page", async () => {
    const note = (
      await api("POST", "/v1/notes", {
        title: "Team stand-up",
        transcripts: [
          {
            speaker: "SPEAKER_00",
            text: "Yesterday I finished the login page.",
            startTimestamp: "00:00",
            endTimestamp: "00:10",
          },
          {
            speaker: "SPEAKER_01",
            text: "Today I will deploy the payment service.",
            startTimestamp: "00:10",
            endTimestamp: "00:15",
          },
          {
            speaker: "SPEAKER_00",
            text: "I am blocked by the broken build server.",
            startTimestamp: "00:15",
            endTimestamp: "00:20",
          },
        ],
      })
    ).body.note;
    for (let i = 0; i < 100 && (await api("GET", `/v1/notes/${note.id}`)).body.note.status !== "completed"; i++)
      await new Promise((r) => setTimeout(r, 100));
    const page = adminPage;
    await page.goto(`${server.url}/notes/${note.id}`);
    expect(await page.locator("dl.facts").innerText()).toContain("General meeting");
    await page.getByLabel("Write the enhanced note with the template").selectOption({ label: "Stand-up" });
    await page.getByRole("button", { name: "Enhance" }).click();
    // The status updates by itself; the page then shows the new sections.
    for (let i = 0; i < 50 && !(await page.locator("dl.facts").innerText()).includes("Stand-up"); i++) {
      await new Promise((r) => setTimeout(r, 200));
      await page.reload();
    }
    expect(await page.locator("dl.facts").innerText()).toContain("Stand-up");
    expect(await page.getByRole("heading", { name: "Yesterday" }).count()).toBe(1);
    await page.getByLabel("SPEAKER_00", { exact: true }).fill("Ana");
    await page.getByRole("button", { name: "Name speakers" }).click();
    await page.waitForURL(/saved=1/);
    expect(await page.locator(".transcript").innerText()).toContain("Ana");
    // Each speaker with their talk time, as a bar and in minutes.
    const ana = page.locator("ul.speakers li").filter({ hasText: "Ana" });
    expect(await ana.innerText()).toMatch(/Ana\s+0:15/);
    expect(await ana.getByRole("meter").getAttribute("value")).toBe("15");
    await capture(page, "note-templates");
    const after = (await api("GET", `/v1/notes/${note.id}`)).body.note;
    expect(after.transcripts.map((s: { speaker: string }) => s.speaker)).toEqual(["Ana", "SPEAKER_01", "Ana"]);
  });

  it("folders and webhooks are managed from their pages; a webhook's secret is shown once", async () => {
    const page = adminPage;
    await page.goto(`${server.url}/settings/folders`);
    await page.getByLabel("Name", { exact: true }).fill("Customers <i>A</i>");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.waitForURL(/\/settings\/folders$/);
    await page.getByLabel("Name of Customers <i>A</i>").fill("Customers");
    await page.getByRole("button", { name: "Rename Customers <i>A</i>" }).click();
    await page.waitForURL(/\/settings\/folders$/);
    expect((await api("GET", "/v1/folders")).body.folders.map((f: { name: string }) => f.name)).toContain("Customers");
    await capture(page, "folders");
    expectedDialogs.push("Delete the folder Customers? Its notes stay, outside any folder.");
    await page.getByRole("button", { name: "Delete Customers (its notes stay)" }).click();
    await page.waitForURL(/\/settings\/folders$/);
    expect((await api("GET", "/v1/folders")).body.folders.map((f: { name: string }) => f.name)).not.toContain(
      "Customers",
    );

    await page.goto(`${server.url}/settings/webhooks`);
    await page.getByLabel("URL").fill("not a url");
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByLabel("URL").fill("http://127.0.0.1:9/hook");
    await page.getByRole("button", { name: "Register" }).click();
    const secret = (await page.locator("#webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await capture(page, "webhooks");
    expect(
      (await api("GET", "/v1/integrations/automation/webhook")).body.webhooks.map(
        (w: { hookUrl: string }) => w.hookUrl,
      ),
    ).toContain("http://127.0.0.1:9/hook");
    await page.goto(`${server.url}/settings/webhooks`);
    expect(await page.locator("#webhook-secret").count()).toBe(0);
    await page.getByRole("button", { name: "Remove http://127.0.0.1:9/hook" }).click();
    await page.waitForURL(/\/settings\/webhooks$/);
    expect((await api("GET", "/v1/integrations/automation/webhook")).body.webhooks).toEqual([]);
  });

  it("a folder is made private and shared again from its page", async () => {
    const page = adminPage;
    await page.goto(`${server.url}/settings/folders`);
    await page.getByLabel("Name", { exact: true }).fill("Board");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.waitForURL(/\/settings\/folders$/);
    const privacy = async () =>
      (await api("GET", "/v1/folders")).body.folders.find((f: { name: string }) => f.name === "Board").isPrivate;
    expect(await privacy()).toBe(false);
    await page.getByLabel("Who sees Board", { exact: true }).selectOption("1");
    await page.getByRole("button", { name: "Save who sees Board" }).click();
    await page.waitForURL(/\/settings\/folders$/);
    expect(await privacy()).toBe(true);
    expect(await page.getByLabel("Who sees Board", { exact: true }).inputValue()).toBe("1");
    await page.getByLabel("Who sees Board", { exact: true }).selectOption("0");
    await page.getByRole("button", { name: "Save who sees Board" }).click();
    await page.waitForURL(/\/settings\/folders$/);
    expect(await privacy()).toBe(false);
  });

  it("a delivered webhook event is sent again from the delivery log", async () => {
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      received.push(String(req.headers["webhook-id"]));
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/redeliver`;
    try {
      await api("POST", "/v1/integrations/automation/webhook", { hookUrl });
      await api("POST", "/v1/notes", { title: "Hooked note" });
      const delivered = async () =>
        (await api("GET", "/v1/integrations/automation/deliveries?limit=100")).body.items.find(
          (d: { hookUrl: string; status: string }) => d.hookUrl === hookUrl && d.status === "delivered",
        );
      await expect.poll(delivered, { timeout: 10_000 }).toBeTruthy();
      const first = await delivered();
      const page = adminPage;
      await page.goto(`${server.url}/settings/webhooks`);
      await page.getByRole("button", { name: `Send the note.created event to ${hookUrl} again` }).click();
      expect(await page.getByRole("status").textContent()).toContain("Queued for delivery");
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
      expect(received).toEqual([first.eventId, first.eventId]);
      await expect.poll(async () => (await delivered())?.attempts, { timeout: 10_000 }).toBe(2);
      await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl });
    } finally {
      receiver.close();
    }
  });

  it("workspace settings: name, allowed domains and who sees new notes; groups are given to members", async () => {
    const page = adminPage;
    await page.goto(`${server.url}/settings/workspace`);
    await page.getByLabel("Name").fill("Acme <script>x</script>");
    await page.getByLabel(/Allowed email domains/).fill("acme.example, @Acme.Example beta.example");
    await page.getByLabel("Who sees a new note").selectOption("only-me");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/settings\/workspace\?saved=1$/);
    expect(await page.getByRole("status").textContent()).toContain("Saved");
    expect(await page.locator("header .who span").textContent()).toContain("Acme <script>x</script>");
    await capture(page, "workspace");
    const ws = (await api("GET", "/v1/workspace")).body.workspace;
    expect(ws).toMatchObject({
      name: "Acme <script>x</script>",
      allowedEmailDomains: ["acme.example", "beta.example"],
      settings: { meetingDefaultPermission: "only-me" },
    });
    expect((await api("POST", "/v1/notes", { title: "Quiet by default" })).body.note.visibility).toBe("only-me");
    // A bad domain is refused on the page and nothing changes.
    await page.getByLabel(/Allowed email domains/).fill("not a domain!");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/domain/);
    expect((await api("GET", "/v1/workspace")).body.workspace.allowedEmailDomains).toEqual([
      "acme.example",
      "beta.example",
    ]);
    await api("PATCH", "/v1/workspace", {
      name: "My Workspace",
      allowedEmailDomains: [],
      settings: { meetingDefaultPermission: "workspace-read" },
    });

    await page.goto(`${server.url}/settings/members`);
    await page.getByLabel("Name", { exact: true }).fill("Engineering");
    await page.getByRole("button", { name: "Create group" }).click();
    await page.waitForURL(/\/settings\/members$/);
    await page.getByLabel("Groups of Admin: none").click();
    await page.getByRole("checkbox", { name: "Engineering" }).first().check();
    await page.getByRole("button", { name: "Save the groups of Admin", exact: true }).click();
    await page.waitForURL(/\/settings\/members$/);
    const me = (await api("GET", "/v1/me")).body.user.id;
    const members = (await api("GET", "/v1/workspace/members")).body.items;
    expect(
      members.find((m: { userId: string }) => m.userId === me).groups.map((g: { name: string }) => g.name),
    ).toEqual(["Engineering"]);
    await page.getByLabel("Groups of Admin: Engineering").click();
    await capture(page, "members-groups");
  });

  it("the CLI's approval page is accessible and names what the key may do", async () => {
    const page = adminPage;
    const q = new URLSearchParams({
      redirect_uri: "http://127.0.0.1:41234/callback",
      state: "s",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      name: "notula CLI on laptop",
    });
    await page.goto(`${server.url}/cli/authorize?${q}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in the notula CLI?");
    expect(await page.locator("main, body").first().textContent()).toContain("notes, folders, users, templates");
    await capture(page, "cli-authorize");
  });

  it("on a phone the sections fold into a menu that opens without script; an empty search says so", async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });
    await phone.addCookies(await adminContext.cookies());
    const page = await phone.newPage();
    await page.goto(`${server.url}/notes`);
    const keys = page.getByRole("link", { name: "API keys" });
    expect(await keys.isVisible()).toBe(false);
    const header = await page.locator("header.top").boundingBox();
    expect(header!.height).toBeLessThan(80);
    await page.locator("label.menu-button").click();
    await page.locator("header details.settings-menu > summary").click();
    expect(await keys.isVisible()).toBe(true);
    await keys.click();
    await page.waitForURL(/\/settings\/keys$/);
    await page.goto(`${server.url}/notes?said=${encodeURIComponent("zebra xylophone")}`);
    expect(await page.locator("section[aria-label='Search results']").textContent()).toContain(
      "No note mentions “zebra xylophone”.",
    );
    await phone.close();
  });

  it("keyboard: / searches, Ctrl-K jumps to a meeting or a page, j and k move through the list, ? lists them", async () => {
    const page = adminPage;
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);
    await page.goto(`${server.url}/notes`);
    await page.keyboard.press("/");
    expect(await focused()).toBe("said");
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("j");
    const first = await focused();
    await page.keyboard.press("j");
    expect(await focused()).not.toBe(first);
    await page.keyboard.press("k");
    expect(await focused()).toBe(first);

    await page.keyboard.press("?");
    expect(await page.locator("dialog#shortcuts").isVisible()).toBe(true);
    expect(await page.locator("dialog#shortcuts").textContent()).toContain("Go to a meeting or a page");
    await page.keyboard.press("Escape");
    expect(await page.locator("dialog#shortcuts").isVisible()).toBe(false);

    const newest = (await api("GET", "/v1/notes?limit=1")).body.items[0];
    await page.keyboard.press("Control+k");
    await page.keyboard.type(newest.title);
    // The meeting itself, not the offer to search for its words (which names them too and
    // comes first, before the titles are fetched).
    await page
      .locator("#switcher-list li", { hasText: newest.title, hasNotText: "Search what was said" })
      .first()
      .waitFor();
    await expectAccessible(page, "quick switcher");
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/notes/${newest.id}$`));
    await page.keyboard.press("Control+k");
    await page.keyboard.type("API");
    await page.locator("#switcher-list li", { hasText: "API keys" }).waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/settings\/keys$/);

    // Words that are no meeting's title: the switcher offers to search what was said, and Enter does.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("zebra budget");
    const offer = page.locator("#switcher-list li", { hasText: "Search what was said for “zebra budget”" });
    await offer.waitFor();
    expect(await page.locator("#switcher-list li").count()).toBe(1);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/notes\?said=zebra%20budget$/);
    // The shortcuts dialog closes with its own button too.
    await page.keyboard.press("?");
    await page.locator("dialog#shortcuts button.close").click();
    expect(await page.locator("dialog#shortcuts").isVisible()).toBe(false);
  });

  it("on a phone the first note and Record are on the first screen, finding and its filters fold behind a tap each, and Go to… opens the switcher", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await phone.addCookies(await adminContext.cookies());
    const page = await phone.newPage();
    await page.goto(`${server.url}/notes`);
    const first = await page.locator("ul.notes li").first().boundingBox();
    expect(first!.y).toBeLessThan(844 - first!.height);
    // Recording is one tap away, on the first screen; a finished note carries no badge.
    const record = (await page.locator("#list-record").boundingBox())!;
    expect(record.y + record.height).toBeLessThan(844);
    expect(record.x + record.width).toBeLessThanOrEqual(390);
    expect(await page.locator("ul.notes li .badge.completed").count()).toBe(0);
    expect(await page.getByLabel("What was said").isVisible()).toBe(false);
    await page.locator("details.fold > summary", { hasText: "Find" }).click();
    expect(await page.getByLabel("What was said").isVisible()).toBe(true);
    expect(await page.getByLabel("Participant email").isVisible()).toBe(false);
    await page.locator("details.filters > summary").click();
    expect(await page.getByLabel("Participant email").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Go to…" }).click();
    expect(await page.locator("dialog#switcher").isVisible()).toBe(true);
    await phone.close();
  });

  it("sessions are listed and can be signed out; an expired session goes to sign in", async () => {
    const second = await newContext();
    const other = await second.newPage();
    await other.goto(`${server.url}/sign-in`);
    await other.getByLabel("Email").fill("admin@notula.local");
    await other.getByLabel("Password").fill(ADMIN_PASSWORD);
    await other.getByRole("button", { name: "Sign in" }).click();
    await other.waitForURL(/\/notes$/);

    await adminPage.goto(`${server.url}/settings/account`);
    expect(await adminPage.locator("tbody tr").count()).toBeGreaterThanOrEqual(2);
    await adminPage.getByRole("button", { name: "Sign out other sessions" }).click();
    expect(await adminPage.getByRole("status").textContent()).toMatch(/Signed out [1-9]/);
    await other.goto(`${server.url}/notes/new`);
    await other.waitForURL(/\/sign-in\?next=%2Fnotes%2Fnew/);
    await second.close();
  });
});
