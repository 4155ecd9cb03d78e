// Calendars, against real sources: Debian's Radicale as the CalDAV server and a local
// ICS feed. A weekly meeting keeps its wall-clock time across a change of daylight
// saving time, a moved occurrence moves, a deleted meeting goes on the next sync, a
// wrong password or a page that is not iCalendar is an error on that calendar, and a
// note made for a meeting carries the event, its participants and its app.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server.js";
import { addMember } from "../helpers/members.js";
import { client, type Client } from "../helpers/http.js";
import { startRadicale, type Radicale } from "../helpers/radicale.js";

const DAY = 86_400_000;
const WEEK = 7 * DAY;

let server: TestServer;
let radicale: Radicale;
let api: Client;
let me: string;
let feed: http.Server;
let feedUrl: string;
let feedBody = "";
const feedRequests: { ifNoneMatch?: string; status: number }[] = [];

/** An iCalendar wall time (no zone) of an instant, as Berlin's clocks show it. */
const berlinWall = (ms: number) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Berlin",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return {
    stamp: `${p.year}${p.month}${p.day}T${p.hour}${p.minute}00`,
    hour: Number(p.hour),
    minute: Number(p.minute),
  };
};
const utcStamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** Tuesday 10:00 in Berlin, twelve weeks ago: 36 weekly meetings then cross a change of clocks. */
function seriesStart(): string {
  let t = Date.now() - 12 * WEEK;
  while (new Date(t).getUTCDay() !== 2) t += DAY;
  return berlinWall(t).stamp.slice(0, 8) + "T100000";
}

const vcalendar = (...lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notula tests//EN", ...lines, "END:VCALENDAR", ""].join("\r\n");

function weeklySeries(email: string) {
  const start = seriesStart();
  // The fourteenth meeting, two weeks from now, moved an hour later.
  const d = new Date(Date.UTC(+start.slice(0, 4), +start.slice(4, 6) - 1, +start.slice(6, 8)) + 14 * WEEK);
  const moved = d.toISOString().slice(0, 10).replace(/-/g, "");
  return vcalendar(
    "BEGIN:VEVENT",
    "UID:weekly-sync@acme.example",
    `DTSTAMP:${utcStamp(Date.now())}`,
    "SUMMARY:Weekly product sync",
    `DTSTART;TZID=Europe/Berlin:${start}`,
    `DTEND;TZID=Europe/Berlin:${start.slice(0, 9)}103000`,
    "RRULE:FREQ=WEEKLY;COUNT=36",
    "ORGANIZER;CN=Ana Lima:mailto:ana@acme.example",
    `ATTENDEE;CN=Admin:mailto:${email}`,
    "ATTENDEE;CN=Ben Ode:mailto:ben@partner.co.uk",
    "ATTENDEE;CN=Cleo:mailto:cleo.private@gmail.com",
    "LOCATION:https://meet.google.com/abc-defg-hij",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:weekly-sync@acme.example",
    `DTSTAMP:${utcStamp(Date.now())}`,
    `RECURRENCE-ID;TZID=Europe/Berlin:${moved}T100000`,
    "SUMMARY:Weekly product sync (moved)",
    `DTSTART;TZID=Europe/Berlin:${moved}T110000`,
    `DTEND;TZID=Europe/Berlin:${moved}T113000`,
    "END:VEVENT",
  );
}

const oneOff = (uid: string, title: string, startsAt: number) =>
  vcalendar(
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${utcStamp(Date.now())}`,
    `SUMMARY:${title}`,
    `DTSTART:${utcStamp(startsAt)}`,
    `DTEND:${utcStamp(startsAt + 3_600_000)}`,
    "END:VEVENT",
  );

async function member(name: string) {
  return client(server.url, (await addMember(server, { name })).key);
}

beforeAll(async () => {
  radicale = await startRadicale();
  server = await startServer({ args: ["--allow-private-calendars", "--no-rate-limit"] });
  api = client(server.url, server.key);
  me = (await api("GET", "/v1/me")).body.user.email;
  expect((await radicale.dav("MKCALENDAR", `/${radicale.user}/work/`)).status).toBe(201);
  const put = (name: string, body: string) =>
    radicale.dav("PUT", `/${radicale.user}/work/${name}.ics`, body, { "content-type": "text/calendar" });
  expect((await put("weekly", weeklySeries(me))).status).toBe(201);
  expect((await put("review", oneOff("review@acme.example", "Budget review", Date.now() + 2 * DAY))).status).toBe(201);
  feed = http.createServer((req, res) => {
    const etag = `"${Buffer.from(feedBody).length}"`;
    const ifNoneMatch = req.headers["if-none-match"];
    const status = ifNoneMatch === etag ? 304 : 200;
    feedRequests.push({ ifNoneMatch, status });
    res.writeHead(status, { "content-type": "text/calendar", etag });
    res.end(status === 200 ? feedBody : undefined);
  });
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/private-abc123/basic.ics`;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await radicale?.stop();
  feed?.close();
});

describe("a CalDAV calendar", () => {
  let calendarId: string;

  it("is connected with its password, read at once, and its meetings keep their local time across a change of clocks", async () => {
    const added = await api("POST", "/v1/calendars", {
      kind: "caldav",
      url: `${radicale.url}/${radicale.user}/work/`,
      username: radicale.user,
      password: radicale.password,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const cal = added.body.calendar;
    calendarId = cal.id;
    expect(cal.lastError).toBeNull();
    expect(cal.lastSyncAt).not.toBeNull();
    expect(JSON.stringify(added.body)).not.toContain(radicale.password);

    const from = new Date(Date.now() - 89 * DAY).toISOString();
    const to = new Date(Date.now() + 179 * DAY).toISOString();
    const { body, status } = await api("GET", `/v1/calendar/events?from=${from}&to=${to}`);
    expect(status).toBe(200);
    const series = body.events.filter((e: { title: string }) => e.title.startsWith("Weekly product sync"));
    expect(series.length).toBeGreaterThan(30);
    const moved = series.filter((e: { title: string }) => e.title.endsWith("(moved)"));
    expect(moved).toHaveLength(1);
    expect(berlinWall(Date.parse(moved[0].startsAt)).hour).toBe(11);
    const regular = series.filter((e: { title: string }) => !e.title.endsWith("(moved)"));
    for (const e of regular) expect(berlinWall(Date.parse(e.startsAt))).toMatchObject({ hour: 10, minute: 0 });
    // The same 10:00 is two different UTC hours on either side of the change.
    expect(new Set(regular.map((e: { startsAt: string }) => new Date(e.startsAt).getUTCHours())).size).toBe(2);
    const first = regular[0];
    expect(first.attendees).toContainEqual({ self: true, email: me.toLowerCase(), displayName: "Admin" });
    expect(first.attendees).toContainEqual({ self: false, email: "ben@partner.co.uk", displayName: "Ben Ode" });
    expect(first.meetingUrl).toBe("https://meet.google.com/abc-defg-hij");
    expect(body.events.some((e: { title: string }) => e.title === "Budget review")).toBe(true);
  });

  it("drops a deleted meeting on the next sync, which answers when done", async () => {
    expect((await radicale.dav("DELETE", `/${radicale.user}/work/review.ics`)).status).toBeLessThan(300);
    const synced = await api("POST", `/v1/calendars/${calendarId}/sync`);
    expect(synced.status).toBe(200);
    expect(synced.body.calendar.lastError).toBeNull();
    const { body } = await api("GET", `/v1/calendar/events?to=${new Date(Date.now() + 30 * DAY).toISOString()}`);
    expect(body.events.some((e: { title: string }) => e.title === "Budget review")).toBe(false);
    expect(body.events.some((e: { title: string }) => e.title.startsWith("Weekly product sync"))).toBe(true);
  });

  it("fills a note made for one of its meetings: the event, the participants and the app", async () => {
    const { body } = await api("GET", `/v1/calendar/events?to=${new Date(Date.now() + 30 * DAY).toISOString()}`);
    const event = body.events.find((e: { title: string }) => e.title === "Weekly product sync");
    const made = await api("POST", "/v1/notes", { title: "Sync notes", calendarEventId: event.id });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const note = made.body.note;
    const { allDay: _a, meetingUrl: _m, ...shape } = event;
    expect(note.calendarEvent).toEqual(shape);
    expect(Object.keys(note.calendarEvent).sort()).toEqual(
      ["attendees", "calendarId", "createdAt", "endsAt", "href", "id", "startsAt", "title", "updatedAt"].sort(),
    );
    expect(note.meetingApp).toBe("Google Meet");
    expect(note.participants).toContainEqual({
      name: "Ben Ode",
      email: "ben@partner.co.uk",
      profileImageUrl: "",
      accountName: "Partner",
      accountDomain: "partner.co.uk",
      accountImageUrl: "",
    });
    // A public mail service's domain names no company.
    expect(note.participants.find((p: { email: string }) => p.email === "cleo.private@gmail.com")).toMatchObject({
      accountName: "",
      accountDomain: "",
    });
    // The participant filter finds it by an attendee.
    const found = await api("GET", "/v1/notes?participantEmail=ben@partner.co.uk");
    expect(found.body.items.map((n: { id: string }) => n.id)).toContain(note.id);
    // A recording started for the meeting takes its title.
    const rec = await api("POST", "/v1/recordings", { format: "ogg", calendarEventId: event.id });
    expect(rec.status).toBe(200);
    expect(rec.body.note.title).toBe("Weekly product sync");
    expect(rec.body.note.participants.length).toBe(4);
    await api("POST", `/v1/recordings/${rec.body.note.id}/stop`);
  });

  it("is its owner's alone: another member neither sees it nor its meetings, nor fills a note from them", async () => {
    const other = await member("Dana");
    expect((await other("GET", "/v1/calendars")).body.calendars).toEqual([]);
    expect((await other("POST", `/v1/calendars/${calendarId}/sync`)).status).toBe(404);
    expect((await other("DELETE", `/v1/calendars/${calendarId}`)).status).toBe(404);
    expect((await other("GET", "/v1/calendar/events")).body.events).toEqual([]);
    const { body } = await api("GET", "/v1/calendar/events");
    const made = await other("POST", "/v1/notes", { title: "Guess", calendarEventId: body.events[0].id });
    // An id none of the caller's calendars holds is kept with only its id.
    expect(made.body.note.calendarEvent).toMatchObject({ id: body.events[0].id, title: "", attendees: [] });
    expect(made.body.note.participants).toEqual([]);
  });

  it("says so on the calendar when the password is refused, and changes nothing else", async () => {
    const added = await api("POST", "/v1/calendars", {
      kind: "caldav",
      url: `${radicale.url}/${radicale.user}/work/`,
      username: radicale.user,
      password: "not the password",
    });
    expect(added.status).toBe(200);
    expect(added.body.calendar.lastError).toMatch(/refused the user name or password/);
    expect(added.body.calendar.eventCount).toBe(0);
    expect((await api("DELETE", `/v1/calendars/${added.body.calendar.id}`)).status).toBe(200);
  });
});

describe("an ICS address", () => {
  it("is read with its ETag: an unchanged feed is a 304, a changed one is read again", async () => {
    feedBody = oneOff("launch@acme.example", "Launch review", Date.now() + DAY);
    const added = await api("POST", "/v1/calendars", { kind: "ics", url: feedUrl });
    expect(added.status).toBe(200);
    const cal = added.body.calendar;
    expect(cal.lastError).toBeNull();
    // The secret address is never shown whole.
    expect(cal.address).not.toContain("private-abc123");
    expect(JSON.stringify((await api("GET", "/v1/calendars")).body)).not.toContain("private-abc123");
    expect(feedRequests.at(-1)).toEqual({ ifNoneMatch: undefined, status: 200 });

    await api("POST", `/v1/calendars/${cal.id}/sync`);
    expect(feedRequests.at(-1)?.status).toBe(304);

    feedBody = oneOff("launch@acme.example", "Launch review, moved", Date.now() + 2 * DAY);
    const synced = await api("POST", `/v1/calendars/${cal.id}/sync`);
    expect(feedRequests.at(-1)?.status).toBe(200);
    expect(synced.body.calendar.eventCount).toBe(1);
    const titles = (await api("GET", "/v1/calendar/events")).body.events.map((e: { title: string }) => e.title);
    expect(titles).toContain("Launch review, moved");
    expect(titles).not.toContain("Launch review");

    // A page that is not iCalendar is an error on the calendar; its meetings stay.
    feedBody = "<html><body>Please sign in</body></html>";
    const broken = await api("POST", `/v1/calendars/${cal.id}/sync`);
    expect(broken.body.calendar.lastError).toMatch(/did not return an iCalendar file/);
    expect(broken.body.calendar.eventCount).toBe(1);
  });

  it("refuses bad input by name: an unknown field, a kind it does not know, a password on an ICS address", async () => {
    const unknown = await api("POST", "/v1/calendars", { kind: "ics", url: feedUrl, colour: "red" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/colour/);
    expect((await api("POST", "/v1/calendars", { kind: "exchange", url: feedUrl })).status).toBe(400);
    const withPassword = await api("POST", "/v1/calendars", { kind: "ics", url: feedUrl, password: "x" });
    expect(withPassword.status).toBe(400);
    expect((await api("POST", "/v1/calendars", { kind: "ics", url: "ftp://example.com/cal.ics" })).status).toBe(400);
    expect((await api("GET", "/v1/calendar/events?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z")).status).toBe(
      400,
    );
  });
});

describe("the address policy", () => {
  it("refuses a calendar on this machine unless the server allows private calendars", async () => {
    const strict = await startServer();
    try {
      const res = await client(strict.url, strict.key)("POST", "/v1/calendars", { kind: "ics", url: feedUrl });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/--allow-private-calendars/);
    } finally {
      await strict.stop();
    }
  });
});
