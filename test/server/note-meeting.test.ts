// A note's meeting, against a served ICS feed: a recording started during exactly one
// of the person's meetings is linked to it (not during two), a note is linked and
// unlinked by hand, participants are edited by hand (and the participant filter
// follows), and the notes of one recurring meeting link to the one before and after.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { tone } from "../helpers/audio.js";
import { addMember } from "../helpers/members.js";
import { client, type Client } from "../helpers/http.js";
import { webSession } from "../helpers/world.js";
import { vcalendar, vevent } from "../helpers/ics.js";

const MIN = 60_000;
const DAY = 86_400_000;
let server: TestServer;
let feed: http.Server;
let feedBase: string;
const feeds = new Map<string, string>();

/** A member with their own key and web session, and a calendar of their own served at /NAME.ics. */
async function person(name: string, calendar: string) {
  const { key, email } = await addMember(server, { name, email: `${name}@acme.example` });
  const api = client(server.url, key);
  feeds.set(`/${name}.ics`, calendar);
  const added = await api("POST", "/v1/calendars", { kind: "ics", url: `${feedBase}/${name}.ics` });
  expect(added.body.calendar.lastError).toBeNull();
  return { api, email, calendarId: added.body.calendar.id as string, cookie: () => webSession(server.url, email) };
}

beforeAll(async () => {
  feed = http.createServer((req, res) => res.end(feeds.get(req.url ?? "") ?? ""));
  await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
  feedBase = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
  server = await startServer({ args: ["--allow-private-calendars", "--no-rate-limit"] });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  feed?.close();
});

describe("a note's meeting", () => {
  it("links a recording started during exactly one meeting, and not one started during two", async () => {
    const t = Date.now();
    const critique = vevent("critique@acme.example", "Design critique", t - 10 * MIN, t + 50 * MIN, [
      "ATTENDEE;CN=Eli:mailto:eli@acme.example",
      "ATTENDEE;CN=Ana Lima:mailto:ana@partner.example",
      "DESCRIPTION:https://acme.zoom.us/j/42",
    ]);
    const eli = await person(
      "eli",
      vcalendar(critique, vevent("later@acme.example", "Later", t + 3 * DAY, t + 3 * DAY + 30 * MIN)),
    );
    const rec = await eli.api("POST", "/v1/recordings", { format: "ogg" });
    expect(rec.status, rec.text).toBe(200);
    const note = rec.body.note;
    expect(note.title).toBe("Design critique");
    expect(note.calendarEvent.title).toBe("Design critique");
    expect(note.meetingApp).toBe("Zoom");
    expect(note.participants.map((p: { email: string }) => p.email)).toEqual([
      "eli@acme.example",
      "ana@partner.example",
    ]);
    await eli.api("POST", `/v1/recordings/${note.id}/stop`);

    // A second meeting at the same time: which one the recording is for cannot be told.
    feeds.set("/eli.ics", vcalendar(critique, vevent("coffee@acme.example", "Coffee", t - 5 * MIN, t + 25 * MIN)));
    await eli.api("POST", `/v1/calendars/${eli.calendarId}/sync`);
    const clash = await eli.api("POST", "/v1/recordings", { format: "ogg" });
    expect(clash.body.note.calendarEvent).toBeNull();
    expect(clash.body.note.participants).toEqual([]);
    await eli.api("POST", `/v1/recordings/${clash.body.note.id}/stop`);
  });

  it("adds people named by hand to the meeting's attendees on a recording and an upload, each once", async () => {
    const t = Date.now();
    const june = await person(
      "june",
      vcalendar(
        vevent("board@acme.example", "Board prep", t + 2 * DAY, t + 2 * DAY + 60 * MIN, [
          "ATTENDEE;CN=June:mailto:june@acme.example",
          "ATTENDEE;CN=Ivy Park:mailto:ivy@acme.example",
        ]),
      ),
    );
    const eventId = (
      await june.api(
        "GET",
        `/v1/calendar/events?from=${new Date(t).toISOString()}&to=${new Date(t + 3 * DAY).toISOString()}`,
      )
    ).body.events[0].id;
    const rec = await june.api("POST", "/v1/recordings", {
      format: "ogg",
      calendarEventId: eventId,
      participants: [
        { name: "Ivy P.", email: "IVY@acme.example" },
        { name: "Hal Ode", email: "hal@vendor.example" },
        { name: "Room 3" },
        {},
      ],
    });
    expect(rec.status, rec.text).toBe(200);
    expect(rec.body.note.participants.map((p: { name: string; email: string }) => [p.name, p.email])).toEqual([
      ["June", "june@acme.example"],
      ["Ivy Park", "ivy@acme.example"],
      ["Hal Ode", "hal@vendor.example"],
      ["Room 3", ""],
    ]);
    expect(rec.body.note.participants[2].accountDomain).toBe("vendor.example");
    await june.api("POST", `/v1/recordings/${rec.body.note.id}/stop`);

    // An upload with no meeting: the people named are the participants.
    const url = (
      await june.api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 1 })
    ).body;
    await fetch(url.presignedUrl, {
      method: "PUT",
      headers: { "content-type": url.contentType },
      body: fs.readFileSync(tone(tempDir(), 1)),
    });
    const made = await june.api("POST", "/v1/notes/from-audio", {
      audioUrl: url.audioUrl,
      participants: [{ email: "kim@acme.example" }],
    });
    expect(made.status, made.text).toBe(200);
    const note = (await june.api("GET", `/v1/notes/${made.body.noteId}`)).body.note;
    expect(note.participants).toMatchObject([{ email: "kim@acme.example", name: "kim" }]);
    // A field a participant does not have is refused by name.
    const bad = await june.api("POST", "/v1/recordings", { format: "ogg", participants: [{ mail: "x@y.z" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("mail");
  });

  it("edits participants by hand, links and unlinks a meeting, and the participant filter follows", async () => {
    const t = Date.now();
    const gus = await person(
      "gus",
      vcalendar(
        vevent("board@acme.example", "Board meeting", t + 2 * DAY, t + 2 * DAY + 60 * MIN, [
          "ATTENDEE;CN=Gus:mailto:gus@acme.example",
          "ATTENDEE;CN=Hal:mailto:hal@bigcorp.example",
        ]),
      ),
    );
    const made = await gus.api("POST", "/v1/notes", { title: "Prep" });
    const id = made.body.note.id as string;
    const edited = await gus.api("PATCH", `/v1/notes/${id}`, {
      participants: [
        { name: "Zoe Park", email: "zoe@studio.example" },
        { email: "ZOE@studio.example" },
        { name: "Ivo" },
      ],
    });
    expect(edited.status, edited.text).toBe(200);
    // One per address; the company from the address's domain; a name alone is kept.
    expect(edited.body.note.participants).toEqual([
      {
        name: "Zoe Park",
        email: "zoe@studio.example",
        profileImageUrl: "",
        accountName: "Studio",
        accountDomain: "studio.example",
        accountImageUrl: "",
      },
      { name: "Ivo", email: "", profileImageUrl: "", accountName: "", accountDomain: "", accountImageUrl: "" },
    ]);
    const byZoe = await gus.api("GET", "/v1/notes?participantEmail=zoe@studio.example");
    expect(byZoe.body.items.map((n: { id: string }) => n.id)).toEqual([id]);
    // Search finds the meeting by who was there, by name or address.
    for (const q of ["zoe park", "zoe@studio.example"]) {
      const found = await gus.api("GET", `/v1/search?q=${encodeURIComponent(q)}&mode=fulltext`);
      expect(
        found.body.results.map((r: { note: { id: string } }) => r.note.id),
        q,
      ).toContain(id);
    }

    const eventId = (await gus.api("GET", "/v1/calendar/events")).body.events[0].id as string;
    const linked = await gus.api("PATCH", `/v1/notes/${id}`, { calendarEventId: eventId });
    expect(linked.body.note.calendarEvent.title).toBe("Board meeting");
    expect(linked.body.note.participants.map((p: { email: string }) => p.email)).toEqual([
      "zoe@studio.example",
      "",
      "gus@acme.example",
      "hal@bigcorp.example",
    ]);
    expect((await gus.api("GET", "/v1/notes?participantEmail=hal@bigcorp.example")).body.items).toHaveLength(1);

    const unlinked = await gus.api("PATCH", `/v1/notes/${id}`, { calendarEventId: null });
    expect(unlinked.body.note.calendarEvent).toBeNull();
    expect(unlinked.body.note.participants.map((p: { name: string }) => p.name)).toEqual(["Zoe Park", "Ivo"]);
    expect((await gus.api("GET", "/v1/notes?participantEmail=hal@bigcorp.example")).body.items).toHaveLength(0);
    const gone = await gus.api("GET", `/v1/search?q=${encodeURIComponent("hal@bigcorp.example")}&mode=fulltext`);
    expect(gone.body.results.map((r: { note: { id: string } }) => r.note.id)).not.toContain(id);

    // Naming a speaker offers the meeting's people first, then the members.
    const html = await (await fetch(`${server.url}/notes/${id}`, { headers: { cookie: await gus.cookie() } })).text();
    const names = [
      ...(/<datalist id="names">(.*?)<\/datalist>/s.exec(html)?.[1] ?? "").matchAll(/value="([^"]*)"/g),
    ].map((m) => m[1]);
    expect(names.slice(0, 2)).toEqual(["Zoe Park", "Ivo"]);
    expect(names).toContain("gus");

    const unknown = await gus.api("PATCH", `/v1/notes/${id}`, { calendarEventId: "cev_nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("calendarEventId");
    const bad = await gus.api("PATCH", `/v1/notes/${id}`, { participants: [{ name: "X", phone: "1" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("phone");
  });

  it("links the notes of one recurring meeting to the one before and the one after, among those the viewer may see", async () => {
    const t = Date.now();
    const first = t - 14 * DAY + 2 * 60 * MIN;
    const weekly = vevent("retro@acme.example", "Team retro", first, first + 45 * MIN, ["RRULE:FREQ=WEEKLY;COUNT=6"]);
    const fay = await person("fay", vcalendar(weekly));
    const events = (
      await fay.api(
        "GET",
        `/v1/calendar/events?from=${new Date(t - 20 * DAY).toISOString()}&to=${new Date(t + 30 * DAY).toISOString()}`,
      )
    ).body.events;
    expect(events).toHaveLength(6);
    const note = async (i: number, visibility = "workspace", summary?: string) =>
      (
        await fay.api("POST", "/v1/notes", {
          title: `Retro ${i}`,
          calendarEventId: events[i].id,
          visibility,
          createdAt: events[i].startsAt,
          ...(summary ? { summary } : {}),
        })
      ).body.note.id as string;
    const tasks = "## Action items\n\n- [ ] Book the retro room (owner: Fay)\n- [x] Order the sticky notes\n";
    const [a, b, hidden, c] = [
      await note(0, "workspace", tasks),
      await note(1),
      await note(2, "private"),
      await note(3),
    ];
    const unrelated = (await fay.api("POST", "/v1/notes", { title: "Other" })).body.note.id as string;

    const page = async (cookie: string, id: string) =>
      (await fetch(`${server.url}/notes/${id}`, { headers: { cookie } })).text();
    const own = await fay.cookie();
    const middle = await page(own, b);
    expect(middle).toContain(`rel="prev" href="/notes/${a}"`);
    expect(middle).toContain(`rel="next" href="/notes/${hidden}"`);
    // What the last retro left open is shown on this one; what it finished is not.
    const before = /<section class="panel" id="open-before">(.*?)<\/section>/s.exec(middle)?.[1] ?? "";
    expect(before).toContain("Book the retro room");
    expect(before).toContain(`href="/notes/${a}"`);
    expect(before).not.toContain("sticky notes");
    expect(await page(own, a)).not.toContain('id="open-before"');
    expect(await page(own, unrelated)).not.toContain('rel="next"');

    // Another member does not see the private one: the series skips it.
    const other = await person("gil", vcalendar());
    const theirs = await page(await other.cookie(), b);
    expect(theirs).toContain(`rel="next" href="/notes/${c}"`);
    expect(theirs).not.toContain(hidden);
    // Whoever may see a note may say who was there (the edit rule), with suggestions.
    expect(theirs).toContain("Edit who was there");
  });
  it("links by time only a recording, and only to a meeting that invites its person: never an upload or a typed note", async () => {
    const t = Date.now();
    const pricing = vevent("pricing@acme.example", "Pricing review with Acme", t - 10 * MIN, t + 50 * MIN, [
      "ORGANIZER;CN=Kim:mailto:kim@acme.example",
      "ATTENDEE;CN=Kim:mailto:kim@acme.example",
      "ATTENDEE;CN=Buyer:mailto:buyer@customer.example",
    ]);
    const kim = await person("kim", vcalendar(pricing));

    // An old standup uploaded during the meeting is not the meeting.
    const url = (
      await kim.api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 1 })
    ).body;
    await fetch(url.presignedUrl, {
      method: "PUT",
      headers: { "content-type": url.contentType },
      body: fs.readFileSync(tone(tempDir(), 1)),
    });
    const upload = await kim.api("POST", "/v1/notes/from-audio", { audioUrl: url.audioUrl });
    expect(upload.status, upload.text).toBe(200);
    const uploaded = (await kim.api("GET", `/v1/notes/${upload.body.noteId}`)).body.note;
    expect(uploaded.calendarEvent).toBeNull();
    expect(uploaded.participants).toEqual([]);
    expect(uploaded.title).not.toContain("Pricing");

    // Nor is a note typed then.
    const typed = (await kim.api("POST", "/v1/notes", { title: "Ideas" })).body.note;
    expect(typed.calendarEvent).toBeNull();

    // A recording started now is.
    const rec = await kim.api("POST", "/v1/recordings", { format: "ogg" });
    expect(rec.body.note.calendarEvent.title).toBe("Pricing review with Acme");
    await kim.api("POST", `/v1/recordings/${rec.body.note.id}/stop`);

    // A team calendar's meeting that does not invite the person is not theirs.
    const team = vevent("others@acme.example", "Sales sync", t - 5 * MIN, t + 25 * MIN, [
      "ORGANIZER;CN=Lee:mailto:lee@acme.example",
      "ATTENDEE;CN=Lee:mailto:lee@acme.example",
    ]);
    const lou = await person("lou", vcalendar(team));
    const theirs = await lou.api("POST", "/v1/recordings", { format: "ogg" });
    expect(theirs.body.note.calendarEvent).toBeNull();
    // By hand it can be linked all the same, and unlinked.
    const eventId = (
      await lou.api(
        "GET",
        `/v1/calendar/events?from=${new Date(t - DAY).toISOString()}&to=${new Date(t + DAY).toISOString()}`,
      )
    ).body.events[0].id;
    const linked = await lou.api("PATCH", `/v1/notes/${theirs.body.note.id}`, { calendarEventId: eventId });
    expect(linked.body.note.calendarEvent.title).toBe("Sales sync");
    await lou.api("POST", `/v1/recordings/${theirs.body.note.id}/stop`);
  });
});
