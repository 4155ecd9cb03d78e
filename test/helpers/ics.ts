// iCalendar text for the calendar tests: a time as iCalendar writes it in UTC, an event
// and a calendar around events, as a feed or a CalDAV server serves them.

/** 20261128T002400Z: an instant in iCalendar's UTC form. */
export const icsStamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** One VEVENT's lines, with extra properties (ATTENDEE, RRULE, DESCRIPTION…) as given. */
export const vevent = (uid: string, title: string, start: number, end: number, extra: string[] = []) => [
  "BEGIN:VEVENT",
  `UID:${uid}`,
  `DTSTAMP:${icsStamp(start)}`,
  `SUMMARY:${title}`,
  `DTSTART:${icsStamp(start)}`,
  `DTEND:${icsStamp(end)}`,
  ...extra,
  "END:VEVENT",
];

/** A VCALENDAR holding these events, as one CRLF-separated text. */
export const vcalendar = (...events: string[][]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notula tests//EN", ...events.flat(), "END:VCALENDAR", ""].join("\r\n");
