// An iCalendar document's meetings between two instants: recurring series expanded
// with their exceptions (moved, cancelled, EXDATE), times read in their own zones, and
// every loop bounded, so that a feed with a rule that never ends, a minutely rule or
// thousands of attendees costs a bounded amount of time and memory.
import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { isKnownZone, zonedToUtc } from "./zoned-time.js";

export interface Occurrence {
  /** Stable across syncs: the calendar, the event's UID and the occurrence it stands for. */
  id: string;
  uid: string;
  /** The series' UID when the event recurs, else null: notes of one series are linked by it. */
  seriesUid: string | null;
  title: string;
  startsAt: number;
  endsAt: number;
  allDay: boolean;
  attendees: { email: string; displayName: string }[];
  organizerEmail: string | null;
  conferenceUrl: string | null;
  createdAt: number | null;
  updatedAt: number | null;
}

export class CalendarFormatError extends Error {}

export const EXPANSION_LIMITS = {
  /** Attendees kept per event (the rest are dropped: a town hall's invite list is not a meeting's). */
  attendees: 500,
  /** Steps through one series' rule before giving up on it (a minutely rule from years ago). */
  stepsPerSeries: 50_000,
  /** Occurrences kept per calendar in the window; more is refused as an error on that calendar. */
  occurrences: 20_000,
};

type Time = InstanceType<typeof ICAL.Time>;

const occurrenceId = (calendarId: string, uid: string, recurrence: string) =>
  "cev_" + createHash("sha256").update(`${calendarId}\n${uid}\n${recurrence}`).digest("base64url").slice(0, 22);

type Zones = Map<string, InstanceType<typeof ICAL.Timezone>>;

/**
 * The instant an iCalendar time names: its own zone by name (an IANA zone, else the
 * feed's own VTIMEZONE of that name), else the feed's X-WR-TIMEZONE, else UTC.
 */
function instant(t: Time, named: string | null, fallbackZone: string | null, zones: Zones): number {
  const wall = { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
  if (t.isDate) return Date.UTC(t.year, t.month - 1, t.day);
  // The TZID the property named: ical.js keeps it only when the feed defines the zone.
  const zone = t.zone?.tzid === "UTC" ? "UTC" : (named ?? t.zone?.tzid ?? null);
  if (zone === "UTC" || zone === "Z") return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  if (zone && zone !== "floating" && isKnownZone(zone)) return zonedToUtc(wall, zone);
  const own = zone ? zones.get(zone) : undefined;
  if (own) {
    const zoned = t.clone();
    zoned.zone = own;
    return zoned.toUnixTime() * 1000;
  }
  return fallbackZone
    ? zonedToUtc(wall, fallbackZone)
    : Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

const MEETING_LINKS: [RegExp, string][] = [
  [/https:\/\/[\w.-]*zoom\.us\/(?:j|my|w)\/[^\s"<>]+/i, "Zoom"],
  [/https:\/\/meet\.google\.com\/[a-z-]+/i, "Google Meet"],
  [/https:\/\/teams\.(?:microsoft|live)\.com\/(?:l\/meetup-join|meet)\/[^\s"<>]+/i, "Microsoft Teams"],
  [/https:\/\/[\w.-]*webex\.com\/[^\s"<>]+/i, "Webex"],
];

/** The meeting's conference link and its app, from the places calendars put them. */
export function conferenceOf(texts: (string | null | undefined)[]): { url: string; app: string } | null {
  for (const text of texts)
    for (const [re, app] of MEETING_LINKS) {
      const m = text ? re.exec(text) : null;
      if (m) return { url: m[0].replace(/[.,;)>]+$/, ""), app };
    }
  return null;
}

const text = (c: InstanceType<typeof ICAL.Component>, name: string) => {
  const v = c.getFirstPropertyValue(name);
  return v === null || v === undefined ? null : String(v);
};
const email = (v: unknown) =>
  String(v ?? "")
    .replace(/^mailto:/i, "")
    .trim()
    .toLowerCase();

function people(c: InstanceType<typeof ICAL.Component>) {
  const out: { email: string; displayName: string }[] = [];
  const seen = new Set<string>();
  const organizer = c.getFirstProperty("organizer");
  for (const p of [...(organizer ? [organizer] : []), ...c.getAllProperties("attendee")]) {
    if (out.length >= EXPANSION_LIMITS.attendees) break;
    const address = email(p.getFirstValue());
    const kind = String(p.getParameter("cutype") ?? "INDIVIDUAL").toUpperCase();
    if (!address.includes("@") || seen.has(address) || kind === "ROOM" || kind === "RESOURCE") continue;
    seen.add(address);
    out.push({ email: address.slice(0, 320), displayName: String(p.getParameter("cn") ?? "").slice(0, 200) });
  }
  return { attendees: out, organizerEmail: organizer ? email(organizer.getFirstValue()) || null : null };
}

/** The TZID parameter of a component's date property, if any. */
const tzidOf = (c: InstanceType<typeof ICAL.Component>, name: string) => {
  const v = c.getFirstProperty(name)?.getParameter("tzid");
  return v ? String(v) : null;
};

const stamp = (c: InstanceType<typeof ICAL.Component>, name: string) => {
  const v = c.getFirstPropertyValue(name) as Time | null;
  return v && typeof v === "object" && "toUnixTime" in v ? v.toUnixTime() * 1000 : null;
};

/** Lets the server's other work run between series: a big calendar expands for seconds. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The occurrences of every meeting in `ics` that overlap [from, to). */
export async function expandCalendar(
  ics: string,
  calendarId: string,
  window: { from: number; to: number },
): Promise<Occurrence[]> {
  let root: InstanceType<typeof ICAL.Component>;
  try {
    root = new ICAL.Component(ICAL.parse(ics));
  } catch (err) {
    throw new CalendarFormatError(`The address did not return an iCalendar file (${(err as Error).message}).`);
  }
  const calendars = root.name === "vcalendar" ? [root] : root.getAllSubcomponents("vcalendar");
  if (!calendars.length) throw new CalendarFormatError("The address did not return an iCalendar file.");
  const out: Occurrence[] = [];
  const keep = (o: Occurrence) => {
    if (out.length >= EXPANSION_LIMITS.occurrences)
      throw new CalendarFormatError(
        `The calendar holds more than ${EXPANSION_LIMITS.occurrences} meetings in the months synced; notula reads calendars of people, not of rooms or whole companies.`,
      );
    out.push(o);
  };
  for (const cal of calendars) {
    // The feed's own zones are read for this parse alone: registered in ical.js's
    // process-wide service, one workspace's feed could redefine another's zone.
    const zones: Zones = new Map();
    for (const c of cal.getAllSubcomponents("vtimezone")) {
      const tzid = text(c, "tzid");
      if (tzid) zones.set(tzid, new ICAL.Timezone(c));
    }
    const wrZone = text(cal, "x-wr-timezone");
    const fallback = wrZone && isKnownZone(wrZone) ? wrZone : null;
    const events = cal.getAllSubcomponents("vevent");
    // Exceptions (RECURRENCE-ID) attach to their series; a lone one stands as an event.
    const series = new Map<string, InstanceType<typeof ICAL.Event>>();
    for (const c of events) if (!c.hasProperty("recurrence-id")) series.set(text(c, "uid") ?? "", new ICAL.Event(c));
    const loose: InstanceType<typeof ICAL.Event>[] = [];
    for (const c of events)
      if (c.hasProperty("recurrence-id")) {
        const parent = series.get(text(c, "uid") ?? "");
        if (parent) parent.relateException(c);
        else loose.push(new ICAL.Event(c));
      }
    const occurrence = (
      item: InstanceType<typeof ICAL.Event>,
      start: Time,
      end: Time,
      uid: string,
      recurrence: string,
      recurring: boolean,
    ) => {
      const c = item.component;
      if (String(text(c, "status") ?? "").toUpperCase() === "CANCELLED") return;
      const startsAt = instant(start, tzidOf(c, "dtstart"), fallback, zones);
      const endsAt = Math.max(startsAt, instant(end, tzidOf(c, "dtend") ?? tzidOf(c, "dtstart"), fallback, zones));
      if (endsAt < window.from || startsAt >= window.to) return;
      const conference = conferenceOf([
        text(c, "x-google-conference"),
        text(c, "url"),
        text(c, "location"),
        text(c, "description"),
      ]);
      keep({
        id: occurrenceId(calendarId, uid, recurrence),
        uid,
        seriesUid: recurring ? uid : null,
        title: (text(c, "summary") ?? "").slice(0, 500),
        startsAt,
        endsAt,
        allDay: start.isDate,
        ...people(c),
        conferenceUrl: conference?.url ?? null,
        createdAt: stamp(c, "created") ?? stamp(c, "dtstamp"),
        updatedAt: stamp(c, "last-modified") ?? stamp(c, "dtstamp"),
      });
    };
    let done = 0;
    for (const [uid, event] of series) {
      if (++done % 25 === 0) await yieldToOthers();
      if (!event.startDate) continue;
      if (!event.isRecurring()) {
        occurrence(event, event.startDate, event.endDate ?? event.startDate, uid, "", false);
        continue;
      }
      const zone = tzidOf(event.component, "dtstart");
      const span = Math.max(
        0,
        instant(event.endDate, zone, fallback, zones) - instant(event.startDate, zone, fallback, zones),
      );
      const it = event.iterator();
      for (let steps = 0; steps < EXPANSION_LIMITS.stepsPerSeries; steps++) {
        if (steps % 2000 === 1999) await yieldToOthers();
        const next = it.next();
        if (!next) break;
        if (instant(next, zone, fallback, zones) >= window.to + span) break;
        const details = event.getOccurrenceDetails(next);
        occurrence(details.item, details.startDate, details.endDate, uid, next.toString(), true);
      }
    }
    for (const event of loose)
      occurrence(
        event,
        event.startDate,
        event.endDate ?? event.startDate,
        event.uid,
        event.recurrenceId?.toString() ?? "",
        true,
      );
  }
  return out.sort((a, b) => a.startsAt - b.startsAt);
}
