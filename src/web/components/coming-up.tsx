// "Coming up" above the notes list: the person's next meetings from their calendars,
// each with its link and a Record button that starts a note for it.
import type { ListedCalendarEvent } from "../../shared/schemas/calendars.js";
import type { z } from "zod";
import { formatWhen } from "../../core/time-zone.js";

type Meeting = z.infer<typeof ListedCalendarEvent>;

export function ComingUp(props: { meetings: Meeting[]; now: number; zone: string }) {
  const zone = props.zone;
  if (!props.meetings.length) return null;
  return (
    <section class="panel coming-up" aria-labelledby="coming-up-title">
      <h2 id="coming-up-title">Coming up</h2>
      <ul>
        {props.meetings.map((m) => {
          const live = Date.parse(m.startsAt) <= props.now;
          return (
            <li>
              <span class="when">
                {live ? "Now" : m.allDay ? m.startsAt.slice(0, 10) : formatWhen(m.startsAt, zone, props.now)}
              </span>
              <span class="what">{m.title || "(no title)"}</span>
              <span class="actions">
                {m.meetingUrl ? (
                  <a href={m.meetingUrl} target="_blank" rel="noopener noreferrer" aria-label={`Join ${m.title}`}>
                    Join
                  </a>
                ) : null}
                <a
                  class="button secondary fit"
                  href={`/notes/new?event=${encodeURIComponent(m.id)}`}
                  aria-label={`Record ${m.title}`}
                >
                  Record
                </a>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
