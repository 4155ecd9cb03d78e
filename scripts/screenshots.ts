// `npm run screenshots`: the README's and the docs' pictures of the web app, taken from
// a demo workspace made here through the API (a team, its folders, a calendar, a week
// of meetings with transcripts and summaries, one recorded), in headless Chromium. Run
// again after a change to the pages: the pictures cannot drift from what the app is.
//
// Needs the built binary's sources (`tsup` runs first), Debian's chromium, ffmpeg and
// flite (the recording's voice): `npm test` installs them.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/helpers/browser.js";
import { admin, ROOT, startServer, tempDir } from "../test/helpers/server.js";
import { client } from "../test/helpers/http.js";
import { addMember } from "../test/helpers/members.js";
import { speakRepeated, tone } from "../test/helpers/audio.js";
import { startTranscriptionServer } from "../test/helpers/vendors.js";
import { PASSWORD } from "../test/helpers/world.js";

const OUT = path.join(ROOT, "docs", "screenshots");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** Who says what in the demo's meetings. */
const PEOPLE = {
  maya: { name: "Maya Chen", email: "maya@northwind.example" },
  ben: { name: "Ben Ode", email: "ben@northwind.example" },
  ana: { name: "Ana Lopez", email: "ana@acme.example" },
  raj: { name: "Raj Patel", email: "raj@northwind.example" },
};

/** A meeting's lines: [seconds, speaker, text]. */
type Lines = [number, string, string][];

const PRICING: Lines = [
  [0, "Maya Chen", "Thanks for joining. Today we settle the pricing for the Acme renewal."],
  [9, "Ana Lopez", "Our budget this year is lower, so we are looking at the team plan rather than enterprise."],
  [21, "Ben Ode", "The team plan caps at fifty seats, and you are at sixty-two today."],
  [31, "Ana Lopez", "Could we keep sixty-two seats at the team price if we sign for two years?"],
  [42, "Maya Chen", "We can do that with a two-year term and annual billing."],
  [51, "Ben Ode", "I will send the revised quote by Friday, with the single sign-on add-on included."],
  [63, "Ana Lopez", "Then I will take it to our finance review on the ninth."],
  [72, "Maya Chen", "Great. Let us meet again after that review to sign."],
];

const transcriptOf = (lines: Lines, end: number) =>
  lines.map(([start, speaker, text], i) => ({
    speaker,
    text,
    startTimestamp: clock(start),
    endTimestamp: clock(lines[i + 1]?.[0] ?? end),
  }));
const clock = (sec: number) => `${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}`;

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const work = tempDir("notula-screens-");
  const now = Date.now();

  // A calendar with what is coming up.
  const ics = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//notula demo//EN",
    ...[
      ["design@northwind.example", "Design review", now + 2 * HOUR, "https://meet.google.com/abc-defg-hij"],
      ["planning@northwind.example", "Weekly planning", now + DAY + 3 * HOUR, "https://northwind.zoom.us/j/5551234"],
      ["acme@northwind.example", "Acme: contract signing", now + 3 * DAY, ""],
    ].flatMap(([uid, title, at, url]) => [
      "BEGIN:VEVENT",
      `UID:${uid}`,
      `DTSTAMP:${stamp(now)}`,
      `SUMMARY:${title}`,
      `DTSTART:${stamp(at as number)}`,
      `DTEND:${stamp((at as number) + HOUR)}`,
      `ORGANIZER;CN=Maya Chen:mailto:admin@notula.local`,
      `ATTENDEE;CN=Maya Chen:mailto:admin@notula.local`,
      `ATTENDEE;CN=Ben Ode:mailto:${PEOPLE.ben.email}`,
      ...(url ? [`DESCRIPTION:Join at ${url}`] : []),
      "END:VEVENT",
    ]),
    "END:VCALENDAR",
  ].join("\r\n");
  const feed = http.createServer((_req, res) => res.end(ics));
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  const stt = await startTranscriptionServer();
  const server = await startServer({
    args: ["--no-rate-limit", "--allow-private-calendars", "--stt-engine", "openai", "--stt-url", stt.url],
  });
  const browser = await launchChromium([
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-audio-capture=${speakRepeated(work, "Welcome everyone. Let us start with the roadmap.", 4, 48000)}`,
  ]);
  try {
    const api = client(server.url, server.key);
    const renamed = await api("PATCH", "/v1/workspace", { name: "Northwind" });
    if (renamed.status !== 200) throw new Error(`renaming the workspace: ${renamed.text}`);
    await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
    await addMember(server, { name: PEOPLE.ben.name, email: PEOPLE.ben.email });
    await addMember(server, { name: PEOPLE.raj.name, email: PEOPLE.raj.email });
    await api("POST", "/v1/calendars", {
      kind: "ics",
      url: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/w.ics`,
    });
    const me = (await api("GET", "/v1/me")).body.user.id;
    const product = (await api("POST", "/v1/folders", { name: "Product", ownerUserId: me })).body.folder.id;
    const sales = (await api("POST", "/v1/folders", { name: "Sales", ownerUserId: me })).body.folder.id;

    // A week of meetings, typed in as another tool would hand them over.
    const typed: [string, number, string[], string, Lines][] = [
      [
        "Weekly planning",
        6,
        [product],
        "We agreed the March release scope: search filters and the new recap mail.\n\n- [ ] Write the release notes (owner: Raj Patel)",
        [
          [0, "Maya Chen", "Let us go over the March release scope."],
          [8, "Raj Patel", "Search filters are done; the recap mail needs one more week."],
        ],
      ],
      [
        "Hiring sync",
        5,
        [],
        "Two candidates go to the final round.\n\n- [ ] Call both candidates on Monday (owner: Ben Ode)",
        [[0, "Ben Ode", "Two candidates passed the technical interview."]],
      ],
      [
        "Customer call: Acme onboarding",
        3,
        [sales],
        "Acme's admins want single sign-on before the rollout.\n\n- [ ] Share the SSO setup guide (owner: Maya Chen)",
        [[0, "Ana Lopez", "Our admins need single sign-on before we roll out to everyone."]],
      ],
      [
        "Design critique: mobile list",
        1,
        [product],
        "The notes list starts on the first screen of a phone.",
        [[0, "Raj Patel", "On a phone the list should start without scrolling."]],
      ],
    ];
    for (const [title, daysAgo, folderIds, summary, lines] of typed)
      await api("POST", "/v1/notes", {
        title,
        folderIds,
        summary,
        createdAt: new Date(now - daysAgo * DAY).toISOString(),
        participants: [PEOPLE.maya, PEOPLE.ben],
        transcripts: transcriptOf(lines, lines.at(-1)![0] + 10),
      });

    // The meeting the note page shows: recorded, with its speakers and a written summary.
    stt.set({
      script: PRICING.map(([start, speaker, text], i) => ({ start, end: PRICING[i + 1]?.[0] ?? 80, text, speaker })),
    });
    const u = (await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 80 }))
      .body;
    await fetch(u.presignedUrl, {
      method: "PUT",
      headers: { "content-type": u.contentType },
      body: fs.readFileSync(tone(work, 80)),
    });
    const pricing = (
      await api("POST", "/v1/notes/from-audio", {
        audioUrl: u.audioUrl,
        title: "Pricing review with Acme",
        folderId: sales,
        participants: [PEOPLE.maya, PEOPLE.ben, PEOPLE.ana],
      })
    ).body.noteId as string;
    for (let i = 0; i < 600; i++) {
      const status = (await api("GET", `/v1/notes/${pricing}`)).body.note.status;
      if (status === "completed" || status === "recorded-not-summarized") break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: "Europe/Berlin" });
    const page = await context.newPage();
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel("Email").fill("admin@notula.local");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/notes$/);
    await page.goto(`${server.url}/settings/account`);
    await page.getByLabel("Your name").fill(PEOPLE.maya.name);
    await page.getByRole("button", { name: "Save name" }).click();

    const shot = async (p: Page, name: string, fullPage = false) => {
      await p.screenshot({ path: path.join(OUT, `${name}.png`), fullPage });
      process.stdout.write(`docs/screenshots/${name}.png\n`);
    };

    await page.goto(`${server.url}/notes`);
    await shot(page, "coming-up");

    await page.goto(`${server.url}/notes/${pricing}#t=42`);
    await page.waitForFunction(() => Boolean((globalThis as any).document.querySelector("li.cited"))); // eslint-disable-line @typescript-eslint/no-explicit-any
    await shot(page, "note");
    await page
      .locator("dl")
      .first()
      .screenshot({ path: path.join(OUT, "speakers.png") });
    process.stdout.write("docs/screenshots/speakers.png\n");

    await page.goto(`${server.url}/settings/keys`);
    await shot(page, "api-keys");

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: "Europe/Berlin" });
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto(`${server.url}/notes`);
    await shot(small, "notes-phone");

    await page.goto(`${server.url}/notes/new`);
    await page.getByLabel("Name of the meeting (optional)").fill("Roadmap kickoff");
    await page.getByRole("button", { name: "Record", exact: true }).click();
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector("#record-state")?.textContent === "Recording…", // eslint-disable-line @typescript-eslint/no-explicit-any
    );
    await page.waitForTimeout(4000);
    await shot(page, "recording");
    await page.getByRole("button", { name: "Stop" }).click();
    await phone.close();
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await stt.close();
    feed.close();
  }
}

await main();
