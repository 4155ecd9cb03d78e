// Times in the reader's zone, in headless Chromium: the browser's zone is taken at
// sign-in (one east of UTC, one west), a daylight-saving change is crossed, and a zone
// chosen in Settings → Account wins over the browser's from then on. The CLI writes the
// terminal's zone, and the API (and --json) stays in UTC.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { admin, cliEnv, run, startServer, type TestServer } from "../helpers/server.js";
import { capture } from "../helpers/page-checks.js";
import { client, type Client } from "../helpers/http.js";
import { addMember } from "../helpers/members.js";
import { PASSWORD } from "../helpers/world.js";
import { vcalendar, vevent } from "../helpers/ics.js";

const HOUR = 3_600_000;
/** "2026-11-28 07:00" in a zone, as Sweden writes dates (told by the runtime, not by notula). */
const wallClock = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "short" }).format(new Date(ms));

let server: TestServer;
let api: Client;
let browser: Browser;
let feed: http.Server;
const meetingAt = Math.ceil(Date.now() / HOUR) * HOUR + 3 * HOUR;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const body = vcalendar(vevent("planning@acme.example", "Planning", meetingAt, meetingAt + HOUR));
  feed = http.createServer((_req, res) => res.end(body));
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  server = await startServer({ args: ["--no-rate-limit", "--allow-private-calendars"] });
  api = client(server.url, server.key);
  await api("POST", "/v1/calendars", {
    kind: "ics",
    url: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/work.ics`,
  });
  // Made on the night Europe's clocks go forward (01:00 UTC on 29 March 2026).
  for (const [title, createdAt] of [
    ["Before the change", "2026-03-29T00:30:00Z"],
    ["After the change", "2026-03-29T01:30:00Z"],
  ])
    expect((await api("POST", "/v1/notes", { title, createdAt })).status).toBe(200);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  await addMember(server, { name: "Nia", email: "nia@acme.example" });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
  feed?.close();
});

async function signIn(email: string, timezoneId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/notes$/);
  return page;
}

/** A list row's time as the reader's zone writes it in full (its title; the row says it as people do: "Sun 29 Mar"). */
const shownDate = (page: Page, title: string) =>
  page.locator("ul.notes li", { hasText: title }).locator(".meta time").getAttribute("title");

describe("times in the reader's zone", () => {
  it("east of UTC: the browser's zone, across the change of the clocks, and the meetings coming up", async () => {
    const page = await signIn("admin@notula.local", "Europe/Berlin");
    expect(await shownDate(page, "Before the change")).toContain("2026-03-29 01:30 GMT+1");
    expect(await shownDate(page, "After the change")).toContain("2026-03-29 03:30 GMT+2");
    await page.locator("details.fold > summary", { hasText: "Coming up" }).waitFor({ state: "attached" });
    // Said as people do ("Today 21:00", "Tomorrow 00:00"), at Berlin's time.
    expect(await page.locator(".coming-up .when").first().textContent()).toMatch(
      new RegExp(`(Today|Tomorrow) ${wallClock(meetingAt, "Europe/Berlin").slice(11)}`),
    );
    // The API stays in UTC.
    const listed = (await api("GET", "/v1/notes?limit=100")).body.items;
    expect(listed.map((n: { createdAt: string }) => n.createdAt)).toContain("2026-03-29T01:30:00.000Z");
  });

  it("west of UTC: another person's browser, another zone", async () => {
    const page = await signIn("nia@acme.example", "America/New_York");
    expect(await shownDate(page, "Before the change")).toContain("2026-03-28 20:30 EDT");
    expect(await shownDate(page, "After the change")).toContain("2026-03-28 21:30 EDT");
  });

  it("a zone chosen in Settings → Account wins over the browser's, also at the next sign-in", async () => {
    const page = await signIn("admin@notula.local", "Europe/Berlin");
    await page.goto(`${server.url}/settings/account`);
    expect(await page.locator("#time-zone option:checked").getAttribute("value")).toBe("Europe/Berlin");
    await page.locator("#time-zone").selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await page.getByText("Times are now shown in your chosen time zone.").waitFor();
    await capture(page, "account-time-zone");
    await page.goto(`${server.url}/notes`);
    expect(await shownDate(page, "After the change")).toContain("2026-03-29 10:30 GMT+9");
    const again = await signIn("admin@notula.local", "America/Los_Angeles");
    expect(await shownDate(again, "After the change")).toContain("2026-03-29 10:30 GMT+9");
    // A zone that does not exist is refused by name.
    const r = await again.request.post(`${server.url}/settings/account/time-zone`, {
      form: {
        timeZone: "Mars/Olympus_Mons",
        csrf: (await again.locator('meta[name="csrf-token"]').getAttribute("content"))!,
      },
    });
    expect(r.status()).toBe(400);
    expect(await r.text()).toContain("is not a time zone");
  });

  it("the CLI writes the terminal's zone; --json keeps the API's UTC", async () => {
    const list = (tz: string, json = false) =>
      run(["notes", "list", ...(json ? ["--json"] : [])], { env: { ...cliEnv(server), TZ: tz } });
    expect((await list("Europe/Berlin")).stdout).toContain("2026-03-29 03:30");
    expect((await list("America/New_York")).stdout).toContain("2026-03-28 21:30");
    expect((await list("America/New_York", true)).stdout).toContain("2026-03-29T01:30:00.000Z");
  });
});
