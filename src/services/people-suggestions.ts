// Whom to offer when someone types a participant's or a speaker's name: the
// workspace's members and the attendees of the person's own recent and coming
// meetings (their calendars are theirs; nobody else's attendees are offered).
import type { Repositories } from "../db/repos/index.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";

const DAY = 86_400_000;
const MOST = 300;

export interface PersonSuggestion {
  name: string;
  email: string;
}

export function createPeopleSuggestions(d: { repos: Repositories; now: Clock }) {
  return {
    /** Members first, then attendees of the last 30 and next 7 days' meetings; one per address. */
    async forPerson(p: Principal): Promise<PersonSuggestion[]> {
      const t = d.now();
      const members = await d.repos.members.list(p.workspaceId, { limit: MOST, offset: 0 });
      const events = await d.repos.calendars.eventsOf(p.workspaceId, p.userId, t - 30 * DAY, t + 7 * DAY, MOST);
      const out = new Map<string, PersonSuggestion>();
      for (const m of members) out.set(m.email.toLowerCase(), { name: m.name, email: m.email });
      for (const e of events)
        for (const a of e.attendees)
          if (a.email && !out.has(a.email.toLowerCase()))
            out.set(a.email.toLowerCase(), { name: a.displayName || a.email.split("@")[0], email: a.email });
      return [...out.values()].slice(0, MOST);
    },
  };
}
