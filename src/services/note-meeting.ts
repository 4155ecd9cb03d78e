// What a note takes from the meeting it records: the calendar event named by
// `calendarEventId` (resolved against the caller's own calendars), its attendees as
// participants and its conference link's app. An id none of the caller's calendars
// holds is kept with only its id: the event may be in a calendar not connected to
// notula, and a client that names it should get it back, not an error.
import type { Principal } from "../core/principal.js";
import type { ParticipantValue } from "../db/schema/notes.js";
import { participantsOf } from "../calendars/participants.js";
import { BadRequestError } from "../core/errors.js";

export interface MeetingOf {
  title: string;
  calendarEvent: Record<string, unknown>;
  participants: ParticipantValue[];
  meetingApp: string | null;
  /** The recurring meeting it is an occurrence of (its iCalendar UID), else null. */
  series: string | null;
}

export type CalendarLookup = (p: Principal, eventId: string) => Promise<MeetingOf | null>;

const idOnly = (id: string) => ({
  id,
  href: "",
  title: "",
  startsAt: "",
  endsAt: "",
  createdAt: "",
  updatedAt: "",
  calendarId: "",
  attendees: [],
});

/** The meeting's fields for a new note; what the caller gave explicitly wins. */
export async function meetingFields(
  lookup: CalendarLookup | undefined,
  p: Principal,
  input: {
    calendarEventId?: string;
    calendarEvent?: Record<string, unknown> | null;
    participants?: ParticipantValue[];
    meetingApp?: string | null;
  },
) {
  const found = input.calendarEventId && lookup ? await lookup(p, input.calendarEventId) : null;
  return {
    title: found?.title || undefined,
    calendarEvent:
      input.calendarEvent ?? found?.calendarEvent ?? (input.calendarEventId ? idOnly(input.calendarEventId) : null),
    participants: input.participants ?? found?.participants ?? [],
    meetingApp: input.meetingApp ?? found?.meetingApp ?? null,
    calendarSeries: found?.series ?? null,
  };
}

/** A participant as stored: every field of the interface's shape, the company from the address's domain. */
export function participantFrom(x: Partial<ParticipantValue>): ParticipantValue {
  const email = (x.email ?? "").trim();
  const derived = email.includes("@") ? participantsOf([{ email, displayName: x.name ?? "" }])[0] : null;
  return {
    name: (x.name ?? "").trim() || derived?.name || "",
    email,
    profileImageUrl: x.profileImageUrl ?? "",
    accountName: x.accountName || derived?.accountName || "",
    accountDomain: x.accountDomain || derived?.accountDomain || "",
    accountImageUrl: x.accountImageUrl ?? "",
  };
}

const personKey = (x: ParticipantValue) => x.email.toLowerCase() || `name:${x.name.toLowerCase()}`;

/** `base` (the event's attendees) and the people added by hand, each once; an entry with neither name nor email is dropped. */
export function withAdded(
  base: ParticipantValue[],
  added: Partial<ParticipantValue>[] | undefined,
): ParticipantValue[] {
  const seen = new Set(base.map(personKey));
  const out = [...base];
  for (const x of (added ?? []).map(participantFrom)) {
    if (!x.name && !x.email) continue;
    if (seen.has(personKey(x))) continue;
    seen.add(personKey(x));
    out.push(x);
  }
  return out;
}

interface MeetingColumns {
  participants: ParticipantValue[];
  calendarEvent: Record<string, unknown> | null;
  meetingApp: string | null;
  calendarSeries: string | null;
}

/**
 * What a change of a note's meeting writes: participants edited by hand; a link to one
 * of the caller's events (its event, app and attendees added to those there already);
 * or unlinking (the event goes, and its attendees with it, while people added by hand
 * stay). Participants given in the same change win.
 */
export async function meetingChange(
  lookup: CalendarLookup | undefined,
  p: Principal,
  row: { participants: ParticipantValue[]; calendarEvent: unknown },
  patch: {
    participants?: ParticipantValue[];
    addParticipants?: Partial<ParticipantValue>[];
    calendarEventId?: string | null;
  },
): Promise<Partial<MeetingColumns>> {
  const out: Partial<MeetingColumns> = {};
  if (patch.calendarEventId === null) {
    const attendees = new Set(
      (((row.calendarEvent as { attendees?: { email: string }[] } | null)?.attendees ?? []) as { email: string }[]).map(
        (a) => a.email.toLowerCase(),
      ),
    );
    Object.assign(out, {
      calendarEvent: null,
      meetingApp: null,
      calendarSeries: null,
      participants: row.participants.filter((x) => !x.email || !attendees.has(x.email.toLowerCase())),
    });
  } else if (patch.calendarEventId !== undefined) {
    const found = lookup ? await lookup(p, patch.calendarEventId) : null;
    if (!found)
      throw new BadRequestError(`calendarEventId: none of your calendars holds an event ${patch.calendarEventId}.`);
    const have = new Set(row.participants.map(personKey));
    Object.assign(out, {
      calendarEvent: found.calendarEvent,
      meetingApp: found.meetingApp,
      calendarSeries: found.series,
      participants: [...row.participants, ...found.participants.filter((x) => !have.has(personKey(x)))],
    });
  }
  if (patch.participants) {
    const seen = new Set<string>();
    out.participants = patch.participants.map(participantFrom).filter((x) => {
      if (!x.name && !x.email) return false;
      const k = personKey(x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  // People added (typed while a meeting is recorded) join those there, the event's attendees first.
  if (patch.addParticipants?.length)
    out.participants = withAdded(out.participants ?? row.participants, patch.addParticipants);
  return out;
}
