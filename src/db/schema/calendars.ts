// The calendars each person connects, and the meetings read from them. A calendar
// and its meetings belong to the person who connected it.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAtColumn, idColumn } from "./columns.js";
import { userColumn, workspaceColumn } from "./accounts.js";

export const calendars = sqliteTable(
  "calendars",
  {
    id: idColumn(),
    workspaceId: workspaceColumn(),
    userId: userColumn(),
    kind: text("kind").$type<"ics" | "caldav">().notNull(),
    /** The address, encrypted: a secret ICS address is itself the credential. */
    urlEnc: text("url_enc").notNull(),
    /** What may be shown of the address: its host (ICS), or the whole address (CalDAV). */
    label: text("label").notNull(),
    usernameEnc: text("username_enc"),
    passwordEnc: text("password_enc"),
    name: text("name").notNull(),
    /** What the source last said, to ask only for changes: the feed's ETag, CalDAV's ctags. */
    syncState: text("sync_state", { mode: "json" }).$type<Record<string, string>>(),
    lastSyncAt: integer("last_sync_at"),
    lastError: text("last_error"),
    eventCount: integer("event_count").notNull().default(0),
    createdAt: createdAtColumn(),
  },
  (t) => [index("calendars_user_idx").on(t.workspaceId, t.userId, t.createdAt)],
);

export const calendarEvents = sqliteTable(
  "calendar_events",
  {
    id: idColumn(),
    calendarId: text("calendar_id")
      .notNull()
      .references(() => calendars.id, { onDelete: "cascade" }),
    workspaceId: workspaceColumn(),
    userId: userColumn(),
    uid: text("uid").notNull(),
    seriesUid: text("series_uid"),
    title: text("title").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    allDay: integer("all_day", { mode: "boolean" }).notNull(),
    attendees: text("attendees", { mode: "json" }).$type<{ email: string; displayName: string }[]>().notNull(),
    organizerEmail: text("organizer_email"),
    conferenceUrl: text("conference_url"),
    createdAt: integer("created_at"),
    updatedAt: integer("updated_at"),
  },
  (t) => [
    index("calendar_events_user_start_idx").on(t.workspaceId, t.userId, t.startsAt),
    index("calendar_events_calendar_idx").on(t.calendarId),
  ],
);
