// What a note takes from the meeting it records: the calendar event named by
// `calendarEventId` (resolved against the caller's own calendars), its attendees as
// participants and its conference link's app. An id none of the caller's calendars
// holds is kept with only its id: the event may be in a calendar not connected to
// notula, and a client that names it should get it back, not an error.
import type { Principal } from "../core/principal.js";
import type { ParticipantValue } from "../db/schema/notes.js";

export interface MeetingOf {
  title: string;
  calendarEvent: Record<string, unknown>;
  participants: ParticipantValue[];
  meetingApp: string | null;
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
  };
}
