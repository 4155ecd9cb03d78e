// Calendars in the web app, in headless Chromium: Settings → Calendars connects a
// secret ICS address and shows how its sync went; the notes list shows what is coming
// up with a Record button, which starts a recording for that meeting; a note's recap is
// previewed and emailed to the attendees chosen; Settings → Email sets the workspace's
// own SMTP server and sends a test mail through it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { capture } from "../helpers/page-checks.js";
import { startSmtp, type SmtpSink } from "../helpers/smtp.js";
import { client } from "../helpers/http.js";
import { until } from "../helpers/until.js";
import { vevent } from "../helpers/ics.js";

const PASSWORD = "calendar password 1";
const HOUR = 3_600_000;
let server: TestServer;
let browser: Browser;
let page: Page;
let feed: http.Server;
let feedBase: string;
let smtp: SmtpSink;

const event = (uid: string, title: string, at: number, extra: string[] = []) =>
  vevent(uid, title, at, at + HOUR, extra);

beforeAll(async () => {
  const inTwoHours = Math.ceil(Date.now() / HOUR) * HOUR + HOUR;
  const body = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//notula tests//EN",
    "X-WR-CALNAME:Work",
    ...event("review@acme.example", "Quarterly roadmap review", inTwoHours, [
      "ATTENDEE;CN=Ben Ode:mailto:ben@acme.example",
      "DESCRIPTION:Join at https://acme.zoom.us/j/5551234",
    ]),
    ...event("offsite@acme.example", "Offsite planning", inTwoHours + 50 * HOUR),
    "END:VCALENDAR",
  ].join("\r\n");
  feed = http.createServer((req, res) =>
    req.url?.endsWith(".ics") ? res.end(body) : res.end("<html>Not a calendar</html>"),
  );
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  feedBase = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
  smtp = await startSmtp();
  server = await startServer({
    args: ["--no-rate-limit", "--allow-private-calendars", "--allow-private-smtp"],
    env: { NOTULA_SMTP_URL: smtp.url, NOTULA_MAIL_FROM: "notes@acme.example" },
  });
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = await launchChromium(["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel("Email").fill("admin@notula.local");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/notes$/);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
  feed?.close();
});

describe("calendars in the web app", () => {
  it("connects an ICS address, says how the sync went, and says why one failed", async () => {
    await page.locator("header details.settings-menu > summary").click();
    await page.getByRole("link", { name: "Calendars" }).click();
    await page.waitForURL(/\/settings\/calendars$/);
    await page.getByLabel("Address", { exact: true }).fill(`${feedBase}/secret-7f3a/basic.ics`);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByText("Work: 2 meetings read.").waitFor();
    // The secret part of the address is not shown.
    expect(await page.content()).not.toContain("secret-7f3a");

    await page.getByLabel("Address", { exact: true }).fill(`${feedBase}/not-a-calendar`);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByText("could not be read; see why below.").waitFor();
    await page.getByText(/The last sync failed: The address did not return an iCalendar file/).waitFor();
    await capture(page, "calendars");
    await page.getByRole("button", { name: /^Disconnect 127\.0\.0\.1/ }).click();
    await page.getByText("Disconnected; notes keep their meetings.").waitFor();
    expect(await page.getByText(/The last sync failed/).count()).toBe(0);
  });

  it("lists what is coming up above the notes, and Record starts a recording for that meeting", async () => {
    await page.goto(`${server.url}/notes`);
    const coming = page.getByRole("region", { name: "Coming up" });
    await coming.waitFor();
    expect(await coming.getByRole("listitem").count()).toBe(2);
    expect(await coming.getByRole("link", { name: "Join Quarterly roadmap review" }).getAttribute("href")).toBe(
      "https://acme.zoom.us/j/5551234",
    );
    await capture(page, "coming-up");

    await coming.getByRole("link", { name: "Record Quarterly roadmap review" }).click();
    await page.waitForURL(/\/notes\/new\?event=cev_/);
    expect(await page.getByLabel("Name of the meeting (optional)").inputValue()).toBe("Quarterly roadmap review");
    // What the recorder asks the server, caught before a recording starts.
    let asked: { calendarEventId?: string; title?: string } | undefined;
    await page.route("**/notes/record/start", (route) => {
      asked = route.request().postDataJSON();
      return route.fulfill({ status: 400, json: { error: { message: "Held by the test." } } });
    });
    // Someone in the room who is not on the invitation, added by hand.
    await page.locator("#record").getByLabel("Participant 1").fill("Fay Lin <fay@acme.example>");
    await page.getByRole("button", { name: "Record", exact: true }).click();
    await page.getByText("Held by the test.").waitFor();
    expect(asked?.title).toBe("Quarterly roadmap review");
    expect((asked as { participants?: string[] } | undefined)?.participants).toEqual(["Fay Lin <fay@acme.example>"]);
    expect(asked?.calendarEventId).toBe(new URL(page.url()).searchParams.get("event"));
    await page.unroute("**/notes/record/start");
  });

  it("previews a note's recap, and emails it to the attendees chosen", async () => {
    const made = await client(server.url, server.key)("POST", "/v1/notes", {
      title: "Hiring sync",
      summary: "We chose two candidates.\n\n- [ ] Ben calls them on Monday",
      participants: [
        { name: "Ben Ode", email: "ben@acme.example" },
        { name: "Carol Vos", email: "carol@partner.example" },
      ],
    });
    const id = made.body.note.id as string;
    await page.goto(`${server.url}/notes/${id}`);
    // Who was there, edited by hand: the members and the calendar's attendees are offered.
    await page.getByText("Edit who was there").click();
    const offered = await page
      .locator("datalist#people option")
      .evaluateAll((os) => os.map((o) => o.getAttribute("value")));
    expect(offered).toContain("Ben Ode <ben@acme.example>");
    await page.getByLabel("Participant 3").fill("Dana Roy <dana@acme.example>");
    await capture(page, "note-meeting");
    await page.getByRole("button", { name: "Save participants" }).click();
    await page.getByText("Saved: 3 participants.").waitFor();
    await page.getByRole("link", { name: "Email the recap…" }).click();
    await page.waitForURL(/\/recap$/);
    await page.getByRole("heading", { name: "Recap: Hiring sync" }).waitFor();
    expect(await page.getByLabel("The mail's text").textContent()).toContain("Ben calls them on Monday");
    await page.getByText("carol@partner.example, added to the note, with the text alone").waitFor();
    await capture(page, "recap");
    await page.getByRole("checkbox", { name: /Carol Vos/ }).uncheck();
    await page.getByRole("checkbox", { name: /Dana Roy/ }).uncheck();
    await page.getByRole("button", { name: "Send the recap" }).click();
    await page.getByText("The recap is on its way to 1 person.").waitFor();
    const mail = await until("Ben's recap", () =>
      smtp.received.find((r) => r.envelope.to.includes("ben@acme.example")),
    );
    expect(mail.mail.subject).toBe("Recap: Hiring sync");
    expect(smtp.received.some((r) => r.envelope.to.includes("carol@partner.example"))).toBe(false);
  });

  it("writes a note from text with who was there, the calendar's attendees offered", async () => {
    await page.goto(`${server.url}/notes/new`);
    const offered = await page
      .locator("datalist#people option")
      .evaluateAll((os) => os.map((o) => o.getAttribute("value")));
    expect(offered).toContain("Ben Ode <ben@acme.example>");
    await page.getByLabel("Title", { exact: true }).fill("Corridor chat");
    const form = page.locator('form[action="/notes/new-text"]');
    await form.getByLabel("Participant 1").fill("Ben Ode <ben@acme.example>");
    await form.getByLabel("Participant 2").fill("eve@studio.example");
    await page.getByRole("button", { name: "Create note" }).click();
    await page.waitForURL(/\/notes\/note_/);
    await page.getByText("Ben Ode <ben@acme.example>, eve <eve@studio.example>").waitFor();
  });

  it("sets the workspace's own SMTP server in Settings → Email, and a test mail goes through it", async () => {
    await page.goto(`${server.url}/notes`);
    await page.locator("header details.settings-menu > summary").click();
    await page.getByRole("link", { name: "Email", exact: true }).click();
    await page.waitForURL(/\/settings\/email$/);
    await page.getByText("goes out through the server's SMTP server").waitFor();
    const port = new URL(smtp.url).port;
    await page.getByLabel("Server").fill("127.0.0.1");
    await page.getByLabel("Port").fill(port);
    await page.getByLabel("Sender").fill("Acme meetings <meetings@acme.example>");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved. Send a test mail to check it.").waitFor();
    await page.getByText(`through its own server, 127.0.0.1:${port}`).waitFor();
    await capture(page, "email-settings");
    const before = smtp.received.length;
    await page.getByRole("button", { name: "Send a test mail" }).click();
    await page.getByText("A test mail went to admin@notula.local: the SMTP server took it.").waitFor();
    const test = smtp.received.slice(before).find((r) => r.envelope.to.includes("admin@notula.local"));
    expect(test?.mail.from?.value[0]).toMatchObject({ name: "Acme meetings", address: "meetings@acme.example" });
    await page.getByRole("button", { name: "Remove this server" }).click();
    await page.getByText("goes out through the server's SMTP server").waitFor();
  });
});
