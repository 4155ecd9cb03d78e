import { z } from "zod";
import { CalendarEvent } from "./notes.js";
import { Iso } from "./common.js";

export const CalendarAddBody = z
  .object({
    kind: z.enum(["ics", "caldav"]).meta({
      description:
        "ics: a secret iCalendar address (Google, Outlook, iCloud, Fastmail publish one); caldav: a CalDAV server.",
    }),
    url: z.string().trim().min(1, "is required").max(2000).meta({
      description: "The ICS address (http, https or webcal), or the CalDAV server's or calendar's address.",
    }),
    username: z.string().max(500).optional().meta({ description: "CalDAV only." }),
    password: z.string().max(1000).optional().meta({ description: "CalDAV only (an app password); never returned." }),
  })
  .strict()
  .meta({ id: "CalendarAdd" });

export const Calendar = z
  .object({
    id: z.string(),
    kind: z.enum(["ics", "caldav"]),
    name: z.string(),
    address: z
      .string()
      .meta({ description: "A CalDAV address whole; an ICS address by its host alone (it is a secret)." }),
    lastSyncAt: Iso.nullable(),
    lastError: z.string().nullable().meta({ description: "Why the last sync failed; null when it succeeded." }),
    eventCount: z.number().int(),
    createdAt: Iso,
  })
  .meta({ id: "Calendar" });

export const CalendarEventsQuery = z
  .object({
    from: z.iso.datetime({ offset: true }).optional().meta({ description: "Default: now." }),
    to: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: "Default: a week after from; at most 400 days after it." }),
  })
  .strict();

export const ListedCalendarEvent = CalendarEvent.extend({
  allDay: z.boolean(),
  meetingUrl: z.string().nullable().meta({ description: "The conference link (Zoom, Meet, Teams, Webex), if any." }),
}).meta({ id: "ListedCalendarEvent" });
