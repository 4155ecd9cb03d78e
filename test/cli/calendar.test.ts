// notula calendar, the built binary against a real server and real sources: a local
// ICS feed and Radicale's CalDAV, the password read from standard input.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startServer, tempDir, type TestServer, cliEnv } from "../helpers/server.js";
import { startRadicale, type Radicale } from "../helpers/radicale.js";
import { tone } from "../helpers/audio.js";

let server: TestServer;
let radicale: Radicale;
let feed: http.Server;
let feedUrl: string;
let env: Record<string, string>;

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
const meeting = (uid: string, title: string, at: number) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//notula tests//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(Date.now())}`,
    `SUMMARY:${title}`,
    `DTSTART:${stamp(at)}`,
    `DTEND:${stamp(at + 1_800_000)}`,
    "ATTENDEE;CN=Ben:mailto:ben@acme.example",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");

beforeAll(async () => {
  radicale = await startRadicale();
  await radicale.dav("MKCALENDAR", `/${radicale.user}/team/`);
  await radicale.dav(
    "PUT",
    `/${radicale.user}/team/standup.ics`,
    meeting("standup@acme.example", "Stand-up", Date.now() + 3_600_000),
    { "content-type": "text/calendar" },
  );
  feed = http.createServer((_req, res) => res.end(meeting("plan@acme.example", "Planning", Date.now() + 7_200_000)));
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/secret-token/basic.ics`;
  server = await startServer({ args: ["--no-rate-limit", "--allow-private-calendars"] });
  env = cliEnv(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await radicale?.stop();
  feed?.close();
});

const cli = (args: string[], input?: string) => run(args, { input, env });

describe("notula calendar", () => {
  it("adds an ICS address and a CalDAV account, lists them, shows the meetings, syncs and removes", async () => {
    const ics = await cli(["calendar", "add", feedUrl]);
    expect(ics.code, ics.stderr).toBe(0);
    const icsId = ics.stdout.trim();
    expect(icsId).toMatch(/^cal_/);
    expect(ics.stderr).toMatch(/1 meetings read/);

    const dav = await cli(
      [
        "calendar",
        "add",
        `${radicale.url}/${radicale.user}/team/`,
        "--caldav",
        "--username",
        radicale.user,
        "--password-stdin",
      ],
      `${radicale.password}\n`,
    );
    expect(dav.code, dav.stderr).toBe(0);

    const listed = JSON.parse((await cli(["calendar", "list", "--json"])).stdout);
    expect(listed.items.map((c: { id: string }) => c.id)).toContain(icsId);
    expect(listed.items.every((c: { lastError: string | null }) => c.lastError === null)).toBe(true);
    expect(JSON.stringify(listed)).not.toContain("secret-token");
    expect(JSON.stringify(listed)).not.toContain(radicale.password);

    const events = await cli(["calendar", "events", "--json", "title"]);
    expect(
      JSON.parse(events.stdout)
        .items.map((e: { title: string }) => e.title)
        .sort(),
    ).toEqual(["Planning", "Stand-up"]);
    // Piped, the rows are tab-separated and whole, without the table's header.
    const rows = (await cli(["calendar", "events"])).stdout.replace(/\n$/, "").split("\n");
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split("\t")).toHaveLength(6);

    expect((await cli(["calendar", "sync", icsId])).code).toBe(0);
    expect((await cli(["calendar", "remove", icsId])).code).toBe(2); // asks first: --yes off a terminal
    expect((await cli(["calendar", "remove", icsId, "--yes"])).code).toBe(0);
    expect(JSON.parse((await cli(["calendar", "list", "--json"])).stdout).items).toHaveLength(1);
  });

  it("records for a meeting with record --event: its title and attendees, and people named by hand", async () => {
    const events = JSON.parse((await cli(["calendar", "events", "--json"])).stdout).items;
    const standup = events.find((e: { title: string }) => e.title === "Stand-up");
    const file = tone(tempDir("notula-cal-audio-"), 2);
    const rec = await cli([
      "record",
      "--input",
      file,
      "--event",
      standup.id,
      "--participant",
      "Cleo Dunn <cleo@acme.example>",
      "--participant",
      "Room 4",
      "--json",
    ]);
    expect(rec.code, rec.stderr).toBe(0);
    const note = JSON.parse((await cli(["notes", "get", JSON.parse(rec.stdout).id, "--json"])).stdout);
    expect(note.title).toBe("Stand-up");
    expect(note.calendarEvent.id).toBe(standup.id);
    expect(note.participants.map((p: { email: string }) => p.email)).toContain("ben@acme.example");
    // People named with --participant join the attendees.
    expect(note.participants.slice(-2).map((p: { name: string }) => p.name)).toEqual(["Cleo Dunn", "Room 4"]);

    const uploaded = await cli(["upload", file, "--participant", "dee@acme.example", "--json"]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(JSON.parse(uploaded.stdout).participants).toMatchObject([{ email: "dee@acme.example" }]);
  }, 120_000);

  it("checks its flags before it connects, and a failed sync is a failed command", async () => {
    const bad = await cli(["calendar", "events", "--from", "yesterday"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--from/);
    const noUser = await cli(["calendar", "add", "https://dav.example.com/", "--caldav"]);
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toMatch(/--username/);
    const wrong = await cli(
      [
        "calendar",
        "add",
        `${radicale.url}/${radicale.user}/team/`,
        "--caldav",
        "--username",
        radicale.user,
        "--password-stdin",
      ],
      "wrong\n",
    );
    expect(wrong.stderr).toMatch(/refused the user name or password/);
    const id = wrong.stdout.trim();
    const sync = await cli(["calendar", "sync", id]);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toMatch(/failed/);
    expect((await cli(["calendar", "sync", "cal_nope"])).code).toBe(3);
  });
});
