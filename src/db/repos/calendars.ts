// Calendars and the meetings synced from them, always read for their owner: a
// calendar and its meetings belong to the person who connected it.
import { and, asc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "../open.js";
import type { calendarEvents, calendars } from "../schema/index.js";
import { first, sqliteTables, type Tables, type Transaction } from "./portable.js";

export type CalendarRow = typeof calendars.$inferSelect;
export type CalendarEventRow = typeof calendarEvents.$inferSelect;

/** Rows written per statement when a sync replaces a calendar's meetings. */
const BATCH = 200;

export function calendarRepo(db: Db, t: Tables = sqliteTables, transaction: Transaction) {
  const { calendars, calendarEvents } = t;
  return {
    async insert(row: CalendarRow): Promise<void> {
      await db.insert(calendars).values(row);
    },
    async listOf(workspaceId: string, userId: string): Promise<CalendarRow[]> {
      return db
        .select()
        .from(calendars)
        .where(and(eq(calendars.workspaceId, workspaceId), eq(calendars.userId, userId)))
        .orderBy(asc(calendars.createdAt), asc(calendars.id));
    },
    async get(workspaceId: string, id: string): Promise<CalendarRow | null> {
      return first(
        await db
          .select()
          .from(calendars)
          .where(and(eq(calendars.workspaceId, workspaceId), eq(calendars.id, id)))
          .limit(1),
      );
    },
    /** Any calendar by id, for the sync job (which carries no caller). */
    async byId(id: string): Promise<CalendarRow | null> {
      return first(await db.select().from(calendars).where(eq(calendars.id, id)).limit(1));
    },
    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(calendars)
        .where(and(eq(calendars.workspaceId, workspaceId), eq(calendars.id, id)))
        .returning({ id: calendars.id });
      return gone.length > 0;
    },
    /** What a sync learnt: its time and error, and the source's state for the next one. */
    async recordSync(
      id: string,
      o: { at: number; error: string | null; state?: Record<string, string> | null; name?: string },
    ): Promise<void> {
      await db
        .update(calendars)
        .set({
          lastSyncAt: o.at,
          lastError: o.error,
          ...(o.state !== undefined ? { syncState: o.state } : {}),
          ...(o.name ? { name: o.name } : {}),
        })
        .where(eq(calendars.id, id));
    },
    /** The calendar's meetings are these now: the others (deleted, cancelled) go. */
    async replaceEvents(calendar: CalendarRow, rows: CalendarEventRow[]): Promise<void> {
      await transaction(async () => {
        await db.delete(calendarEvents).where(eq(calendarEvents.calendarId, calendar.id));
        for (let i = 0; i < rows.length; i += BATCH)
          await db
            .insert(calendarEvents)
            .values(rows.slice(i, i + BATCH))
            .onConflictDoNothing();
        await db.update(calendars).set({ eventCount: rows.length }).where(eq(calendars.id, calendar.id));
      });
    },
    /** A person's meetings overlapping [from, to), earliest first. */
    async eventsOf(workspaceId: string, userId: string, from: number, to: number, limit: number) {
      return db
        .select()
        .from(calendarEvents)
        .where(
          and(
            eq(calendarEvents.workspaceId, workspaceId),
            eq(calendarEvents.userId, userId),
            // A meeting starts at most a day before it ends: read from a day early, then keep the overlapping.
            gte(calendarEvents.startsAt, from - 86_400_000),
            lt(calendarEvents.startsAt, to),
          ),
        )
        .orderBy(asc(calendarEvents.startsAt), asc(calendarEvents.id))
        .limit(limit)
        .then((rows) => rows.filter((r) => r.endsAt > from || r.startsAt >= from));
    },
    async event(workspaceId: string, userId: string, id: string): Promise<CalendarEventRow | null> {
      return first(
        await db
          .select()
          .from(calendarEvents)
          .where(
            and(
              eq(calendarEvents.workspaceId, workspaceId),
              eq(calendarEvents.userId, userId),
              eq(calendarEvents.id, id),
            ),
          )
          .limit(1),
      );
    },
    /** The ids of calendars due a sync (every calendar; the job queue spaces them). */
    async allIds(ids?: string[]): Promise<string[]> {
      const q = db.select({ id: calendars.id }).from(calendars);
      return (await (ids ? q.where(inArray(calendars.id, ids)) : q)).map((r) => r.id);
    },
  };
}
