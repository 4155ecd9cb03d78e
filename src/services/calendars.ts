// Each person's calendars: connecting one (its credentials sealed, its address held to
// the same policy as webhooks'), syncing it (on demand and by the job queue every few
// minutes), and the meetings read from it, which fill a note's event and participants.
import type { Repositories } from "../db/repos/index.js";
import type { CalendarEventRow, CalendarRow } from "../db/repos/calendars.js";
import { newId } from "../core/ids.js";
import { BadRequestError, NotFoundError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import { calendarPolicy } from "../core/access.js";
import type { SecretBox } from "../core/secret-box.js";
import { iso, type Clock } from "../core/clock.js";
import type { Outbound } from "../net/outbound.js";
import type { ResolvedConfig } from "../config/schema.js";
import { CalendarFormatError, expandCalendar, type Occurrence } from "../calendars/expand.js";
import { CalendarSourceError, normalizeCalendarUrl, readCalendar } from "../calendars/sources.js";
import { participantsOf } from "../calendars/participants.js";
import { conferenceOf } from "../calendars/expand.js";
import type { Jobs } from "../jobs/job.js";

const DAY = 86_400_000;
/** An unchanged source is expanded again after this long, so the window moves on (a day at a time). */
const REEXPAND_MS = DAY;

export interface CalendarInput {
  kind: "ics" | "caldav";
  url: string;
  username?: string;
  password?: string;
}

export function createCalendarService(
  repos: Repositories,
  secrets: SecretBox,
  now: Clock,
  options: {
    /** The calendars' way out (net/outbound.ts). */
    outbound: Outbound;
    /** The settings table's calendars.* (how far back and ahead, how many, how large). */
    limits: ResolvedConfig["calendars"];
    /** Each calendar's next sync (the calendar-sync job). */
    jobs: Jobs;
  },
) {
  async function validUrl(raw: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(normalizeCalendarUrl(raw));
    } catch {
      throw new BadRequestError("url: not a valid address.");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new BadRequestError("url: must be an http, https or webcal address.");
    if (url.username || url.password)
      throw new BadRequestError("url: give the user name and password as username and password, not in the address.");
    const priv = await options.outbound.privateAddressesOf(url);
    if (priv.length)
      throw new BadRequestError(
        `url: ${url.hostname} is a private or loopback address (${priv.join(", ")}); start the server with --allow-private-calendars to allow it.`,
      );
    return url;
  }

  const present = (c: CalendarRow) => ({
    id: c.id,
    kind: c.kind,
    name: c.name,
    address: c.label,
    lastSyncAt: c.lastSyncAt === null ? null : iso(c.lastSyncAt),
    lastError: c.lastError,
    eventCount: c.eventCount,
    createdAt: iso(c.createdAt),
  });

  /** The person's own calendar, or not found: nobody else's exists for them. */
  async function own(p: Principal, id: string): Promise<CalendarRow> {
    const row = await repos.calendars.get(p.workspaceId, id);
    if (!row || !calendarPolicy.manage(p, { workspaceId: row.workspaceId, ownerUserId: row.userId }))
      throw new NotFoundError(`Calendar ${id} not found.`);
    return row;
  }

  /** Reads the source and replaces the stored meetings; an error is kept on the calendar, never thrown. */
  async function sync(row: CalendarRow): Promise<CalendarRow> {
    const t = now();
    const state = (row.syncState ?? {}) as Record<string, string>;
    const fresh = row.lastSyncAt !== null && t - Number(state.expandedAt ?? 0) < REEXPAND_MS;
    try {
      const got = await readCalendar({
        kind: row.kind,
        url: secrets.open(row.urlEnc),
        username: row.usernameEnc ? secrets.open(row.usernameEnc) : null,
        password: row.passwordEnc ? secrets.open(row.passwordEnc) : null,
        // Without a fresh expansion the source is read whole, so the window moves on.
        state: fresh ? state : {},
        outbound: options.outbound,
        limits: options.limits,
      });
      if (got.unchanged) {
        await repos.calendars.recordSync(row.id, { at: t, error: null });
      } else {
        const window = { from: t - options.limits.pastDays * DAY, to: t + options.limits.aheadDays * DAY };
        const seen = new Set<string>();
        const rows: CalendarEventRow[] = [];
        for (const doc of got.documents)
          for (const o of await expandCalendar(doc, row.id, window))
            if (!seen.has(o.id)) {
              seen.add(o.id);
              rows.push(eventRow(row, o));
            }
        await repos.calendars.replaceEvents(row, rows);
        await repos.calendars.recordSync(row.id, {
          at: t,
          error: null,
          state: { ...got.state, expandedAt: String(t) },
          name: got.name ?? undefined,
        });
      }
    } catch (err) {
      if (!(err instanceof CalendarSourceError || err instanceof CalendarFormatError)) throw err;
      await repos.calendars.recordSync(row.id, { at: t, error: err.message });
    }
    return (await repos.calendars.byId(row.id)) ?? row;
  }

  const eventRow = (c: CalendarRow, o: Occurrence): CalendarEventRow => ({
    id: o.id,
    calendarId: c.id,
    workspaceId: c.workspaceId,
    userId: c.userId,
    uid: o.uid.slice(0, 500),
    seriesUid: o.seriesUid?.slice(0, 500) ?? null,
    title: o.title,
    startsAt: o.startsAt,
    endsAt: o.endsAt,
    allDay: o.allDay,
    attendees: o.attendees,
    organizerEmail: o.organizerEmail,
    conferenceUrl: o.conferenceUrl,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  });

  /** The interface's CalendarEvent, `self` marking the caller among the attendees. */
  const eventDto = (e: CalendarEventRow, selfEmail: string) => ({
    id: e.id,
    href: e.conferenceUrl ?? "",
    title: e.title,
    startsAt: iso(e.startsAt),
    endsAt: iso(e.endsAt),
    createdAt: iso(e.createdAt ?? e.startsAt),
    updatedAt: iso(e.updatedAt ?? e.createdAt ?? e.startsAt),
    calendarId: e.calendarId,
    attendees: e.attendees.map((a) => ({
      self: a.email === selfEmail,
      email: a.email,
      displayName: a.displayName,
    })),
  });

  const listed = (e: CalendarEventRow, me: string) => ({
    ...eventDto(e, me),
    allDay: e.allDay,
    meetingUrl: e.conferenceUrl,
  });

  /** The person's meetings from `from` (default now) to `to` (default a week later). */
  async function events(p: Principal, range: { from?: number; to?: number }, limit = 500) {
    const from = range.from ?? now();
    const to = range.to ?? from + 7 * DAY;
    if (to <= from) throw new BadRequestError("to: must be after from.");
    if (to - from > 400 * DAY) throw new BadRequestError("to: at most 400 days after from.");
    const me = await selfEmail(p);
    const rows = await repos.calendars.eventsOf(p.workspaceId, p.userId, from, to, limit);
    return rows.map((e) => listed(e, me));
  }

  /**
   * Whether an event is the person's own meeting: one with no guest list (a block in
   * their own calendar), or one that lists them as organizer or attendee. A shared team
   * calendar also holds meetings of others, which a recording of theirs is not for.
   */
  function invites(e: CalendarEventRow, me: string) {
    if (!e.attendees.length) return !e.organizerEmail || e.organizerEmail.toLowerCase() === me;
    return e.organizerEmail?.toLowerCase() === me || e.attendees.some((a) => a.email.toLowerCase() === me);
  }

  async function selfEmail(p: Principal) {
    return ((await repos.users.get(p.userId))?.email ?? "").toLowerCase();
  }

  return {
    async add(p: Principal, input: CalendarInput) {
      const url = await validUrl(input.url);
      if (input.kind === "ics" && (input.username || input.password))
        throw new BadRequestError(
          "username, password: an ICS address carries its own secret; give them for caldav only.",
        );
      const most = options.limits.perPerson;
      if ((await repos.calendars.listOf(p.workspaceId, p.userId)).length >= most)
        throw new BadRequestError(`You have connected ${most} calendars, the most one person may.`);
      const row: CalendarRow = {
        id: newId("cal"),
        workspaceId: p.workspaceId,
        userId: p.userId,
        kind: input.kind,
        urlEnc: secrets.seal(url.toString()),
        // A secret ICS address is shown by its host alone; a CalDAV address is not a secret.
        label: input.kind === "ics" ? `${url.protocol}//${url.host}/…` : url.toString(),
        usernameEnc: input.username ? secrets.seal(input.username) : null,
        passwordEnc: input.password ? secrets.seal(input.password) : null,
        name: url.host,
        syncState: null,
        lastSyncAt: null,
        lastError: null,
        eventCount: 0,
        createdAt: now(),
      };
      await repos.calendars.insert(row);
      const synced = await sync(row);
      await options.jobs.enqueue(
        "calendar-sync",
        { calendarId: row.id },
        { delayMs: options.limits.syncEverySec * 1000 },
      );
      return present(synced);
    },

    async list(p: Principal) {
      return (await repos.calendars.listOf(p.workspaceId, p.userId)).map(present);
    },

    async remove(p: Principal, id: string) {
      await own(p, id);
      await repos.calendars.delete(p.workspaceId, id);
    },

    /** Syncs now and answers when done. */
    async syncNow(p: Principal, id: string) {
      return present(await sync(await own(p, id)));
    },

    /** The job queue's sync: a calendar removed meanwhile is simply gone. */
    async syncById(id: string): Promise<boolean> {
      const row = await repos.calendars.byId(id);
      if (!row) return false;
      await sync(row);
      return true;
    },

    events,

    /** The person's meetings within a day of `at`, the closest first: those a note made then may be linked to. */
    async around(p: Principal, at: number, limit = 12) {
      const near = (await events(p, { from: at - DAY, to: at + DAY }, 50)).filter((e) => !e.allDay);
      const distance = (e: { startsAt: string }) => Math.abs(Date.parse(e.startsAt) - at);
      return near.sort((a, b) => distance(a) - distance(b)).slice(0, limit);
    },

    /** The person's next few meetings (those under way included), and the time it was asked. */
    async comingUp(p: Principal, limit = 3) {
      const t = now();
      return { meetings: await events(p, { from: t, to: t + 7 * DAY }, limit), now: t };
    },

    /**
     * The person's one meeting under way or about to start (within five minutes), if
     * there is exactly one: a recording started now is for it. Two at once (a clash) or
     * a day-long event names no meeting.
     */
    async ongoing(p: Principal): Promise<string | null> {
      const t = now();
      const soon = t + 5 * 60_000;
      const me = await selfEmail(p);
      const rows = (await repos.calendars.eventsOf(p.workspaceId, p.userId, t, soon, 50)).filter(
        (e) => !e.allDay && e.endsAt > t && e.startsAt <= soon && invites(e, me),
      );
      return rows.length === 1 ? rows[0].id : null;
    },

    /** One of the person's meetings, as the events list shows it; null when it is not theirs. */
    async event(p: Principal, id: string) {
      const e = await repos.calendars.event(p.workspaceId, p.userId, id);
      return e ? listed(e, await selfEmail(p)) : null;
    },

    /**
     * What a note made for this meeting carries: the event in the interface's shape, the
     * attendees as participants and the meeting's app. Null when none of the caller's
     * calendars holds the id (the note then keeps the id alone).
     */
    async forNote(p: Principal, eventId: string) {
      const e = await repos.calendars.event(p.workspaceId, p.userId, eventId);
      if (!e) return null;
      return {
        title: e.title,
        calendarEvent: eventDto(e, await selfEmail(p)),
        participants: participantsOf(e.attendees),
        meetingApp: e.conferenceUrl ? (conferenceOf([e.conferenceUrl])?.app ?? null) : null,
        series: e.seriesUid,
      };
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
