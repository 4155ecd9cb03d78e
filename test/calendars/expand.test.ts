// A calendar's meetings read off iCalendar text: series across a change of daylight
// saving time, a moved and a cancelled occurrence, EXDATE, zones named and embedded,
// meeting links, and the bounds on rules without end and crowds of attendees.
import { describe, expect, it } from "vitest";
import { conferenceOf, expandCalendar, EXPANSION_LIMITS } from "../../src/calendars/expand.js";

const ics = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...events, "END:VCALENDAR"].join("\r\n");

const WINDOW = { from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 11, 31) };
const at = (ms: number) => new Date(ms).toISOString();

describe("expandCalendar", () => {
  it("keeps a weekly 10:00 in Berlin at 10:00 across the end of summer time, with a moved and a skipped week", async () => {
    const feed = ics(
      "BEGIN:VEVENT",
      "UID:weekly-1@example.com",
      "DTSTAMP:20260901T000000Z",
      "SUMMARY:Team sync",
      "DTSTART;TZID=Europe/Berlin:20261013T100000",
      "DTEND;TZID=Europe/Berlin:20261013T103000",
      "RRULE:FREQ=WEEKLY;COUNT=6",
      "EXDATE;TZID=Europe/Berlin:20261110T100000",
      "ORGANIZER;CN=Ana Lima:mailto:ana@acme.example",
      "ATTENDEE;CN=Ben Ode;PARTSTAT=ACCEPTED:mailto:Ben@Acme.example",
      "ATTENDEE;CUTYPE=ROOM;CN=Room 4:mailto:room4@acme.example",
      "LOCATION:https://meet.google.com/abc-defg-hij",
      "END:VEVENT",
      // The week of 3 November moved an hour later.
      "BEGIN:VEVENT",
      "UID:weekly-1@example.com",
      "DTSTAMP:20260901T000000Z",
      "RECURRENCE-ID;TZID=Europe/Berlin:20261103T100000",
      "SUMMARY:Team sync (moved)",
      "DTSTART;TZID=Europe/Berlin:20261103T110000",
      "DTEND;TZID=Europe/Berlin:20261103T113000",
      "END:VEVENT",
    );
    const got = await expandCalendar(feed, "cal_1", WINDOW);
    expect(got.map((o) => at(o.startsAt))).toEqual([
      "2026-10-13T08:00:00.000Z", // CEST, UTC+2
      "2026-10-20T08:00:00.000Z",
      "2026-10-27T09:00:00.000Z", // CET from 25 October: still 10:00 in Berlin
      "2026-11-03T10:00:00.000Z", // moved to 11:00
      // 10 November is an EXDATE
      "2026-11-17T09:00:00.000Z",
    ]);
    expect(got[3].title).toBe("Team sync (moved)");
    expect(got.every((o) => o.endsAt - o.startsAt === 30 * 60_000)).toBe(true);
    expect(got[0].attendees).toEqual([
      { email: "ana@acme.example", displayName: "Ana Lima" },
      { email: "ben@acme.example", displayName: "Ben Ode" },
    ]);
    expect(got[0].conferenceUrl).toBe("https://meet.google.com/abc-defg-hij");
    expect(got[0].seriesUid).toBe("weekly-1@example.com");
    // Ids are stable across syncs, distinct per occurrence, and the moved one keeps its own.
    expect(new Set(got.map((o) => o.id)).size).toBe(5);
    expect((await expandCalendar(feed, "cal_1", WINDOW)).map((o) => o.id)).toEqual(got.map((o) => o.id));
    expect((await expandCalendar(feed, "cal_2", WINDOW))[0].id).not.toBe(got[0].id);
  });

  it("reads a zone from the feed's own VTIMEZONE when its name is not one the runtime knows", async () => {
    const feed = ics(
      "BEGIN:VTIMEZONE",
      "TZID:Custom Eastern",
      "BEGIN:STANDARD",
      "DTSTART:19701101T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
      "TZOFFSETFROM:-0400",
      "TZOFFSETTO:-0500",
      "END:STANDARD",
      "BEGIN:DAYLIGHT",
      "DTSTART:19700308T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
      "TZOFFSETFROM:-0500",
      "TZOFFSETTO:-0400",
      "END:DAYLIGHT",
      "END:VTIMEZONE",
      "BEGIN:VEVENT",
      "UID:ny@example.com",
      "DTSTAMP:20260901T000000Z",
      "SUMMARY:Board",
      "DTSTART;TZID=Custom Eastern:20261030T090000",
      "DTEND;TZID=Custom Eastern:20261030T100000",
      "RRULE:FREQ=WEEKLY;COUNT=2",
      "END:VEVENT",
    );
    expect((await expandCalendar(feed, "c", WINDOW)).map((o) => at(o.startsAt))).toEqual([
      "2026-10-30T13:00:00.000Z",
      "2026-11-06T14:00:00.000Z",
    ]);
  });

  it("reads a feed's zone from that feed alone: another workspace's definition of the name never applies", async () => {
    const meeting = [
      "BEGIN:VEVENT",
      "UID:standup@example.com",
      "DTSTAMP:20260901T000000Z",
      "SUMMARY:Stand-up",
      "DTSTART;TZID=Office Time:20261102T090000",
      "DTEND;TZID=Office Time:20261102T093000",
      "END:VEVENT",
    ];
    const defining = (offset: string) =>
      ics(
        "BEGIN:VTIMEZONE",
        "TZID:Office Time",
        "BEGIN:STANDARD",
        "DTSTART:19700101T000000",
        `TZOFFSETFROM:${offset}`,
        `TZOFFSETTO:${offset}`,
        "END:STANDARD",
        "END:VTIMEZONE",
        ...meeting,
      );
    const hour = async (feed: string) => new Date((await expandCalendar(feed, "c", WINDOW))[0].startsAt).getUTCHours();
    expect(await hour(defining("-0700"))).toBe(16);
    expect(await hour(defining("+0100"))).toBe(8);
    // A feed that names the zone without defining it reads its times as UTC, whatever was parsed before.
    expect(await hour(ics(...meeting))).toBe(9);
  });

  it("leaves out cancelled meetings and those outside the window; a rule without end stops at the window", async () => {
    const feed = ics(
      "BEGIN:VEVENT",
      "UID:gone@example.com",
      "DTSTAMP:20260901T000000Z",
      "STATUS:CANCELLED",
      "DTSTART:20261015T100000Z",
      "DTEND:20261015T110000Z",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:old@example.com",
      "DTSTAMP:20260901T000000Z",
      "DTSTART:20250115T100000Z",
      "DTEND:20250115T110000Z",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:daily@example.com",
      "DTSTAMP:20200101T000000Z",
      "SUMMARY:Stand-up",
      "DTSTART:20200101T090000Z",
      "DTEND:20200101T091500Z",
      "RRULE:FREQ=DAILY",
      "END:VEVENT",
    );
    const got = await expandCalendar(feed, "c", WINDOW);
    expect(got.every((o) => o.title === "Stand-up")).toBe(true);
    expect(got).toHaveLength(91); // 1 October to 30 December
  });

  it("refuses what is not iCalendar, and a calendar past its bound, with a clear message", async () => {
    await expect(expandCalendar("<html>Sign in</html>", "c", WINDOW)).rejects.toThrow(
      /did not return an iCalendar file/,
    );
    const minutely = ics(
      "BEGIN:VEVENT",
      "UID:m@example.com",
      "DTSTAMP:20260901T000000Z",
      "DTSTART:20261001T000000Z",
      "DTEND:20261001T000100Z",
      "RRULE:FREQ=MINUTELY",
      "END:VEVENT",
    );
    await expect(expandCalendar(minutely, "c", WINDOW)).rejects.toThrow(
      new RegExp(`more than ${EXPANSION_LIMITS.occurrences} meetings`),
    );
  });

  it("keeps at most the attendee bound of a crowded invite", async () => {
    const crowd = Array.from({ length: 5000 }, (_, i) => `ATTENDEE;CN=P${i}:mailto:p${i}@big.example`);
    const feed = ics(
      "BEGIN:VEVENT",
      "UID:all-hands@example.com",
      "DTSTAMP:20260901T000000Z",
      "DTSTART:20261015T100000Z",
      "DTEND:20261015T110000Z",
      ...crowd,
      "END:VEVENT",
    );
    expect((await expandCalendar(feed, "c", WINDOW))[0].attendees).toHaveLength(EXPANSION_LIMITS.attendees);
  });
});

describe("conferenceOf", () => {
  it("finds the meeting link and names its app", async () => {
    expect(conferenceOf([null, "Join: https://acme.zoom.us/j/123456?pwd=x."])).toEqual({
      url: "https://acme.zoom.us/j/123456?pwd=x",
      app: "Zoom",
    });
    expect(conferenceOf(["https://teams.microsoft.com/l/meetup-join/19%3ameeting"])?.app).toBe("Microsoft Teams");
    expect(conferenceOf(["Room 4"])).toBeNull();
  });
});
