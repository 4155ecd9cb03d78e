// Each person's calendars (extension): connect, list, remove, sync now, and the
// meetings read from them.
import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { IdParam } from "../../../shared/schemas/common.js";
import {
  Calendar,
  CalendarAddBody,
  CalendarEventsQuery,
  ListedCalendarEvent,
} from "../../../shared/schemas/calendars.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Calendars"], { scope: "notes" });

const add = route("addCalendar", {
  ...extension,
  summary: "Connect a calendar: a secret ICS address or a CalDAV account (extension)",
  description:
    "The calendar is read at once (its first sync's error, if any, is in lastError) and then every few minutes. Its address and password are stored encrypted and never returned. Addresses on private networks need --allow-private-calendars.",
  request: { body: jsonBody(CalendarAddBody) },
  responses: { ...ok(z.object({ calendar: Calendar })), 400: errors[400], ...common },
});

const list = route("listCalendars", {
  ...extension,
  summary: "The caller's calendars, with their last sync and error (extension)",
  responses: { ...ok(z.object({ calendars: z.array(Calendar) })), ...common },
});

const remove = route("removeCalendar", {
  ...extension,
  summary: "Disconnect a calendar; its meetings go with it, notes keep theirs (extension)",
  request: { params: IdParam },
  responses: { ...ok(z.object({ success: z.literal(true) })), 404: errors[404], ...common },
});

const sync = route("syncCalendar", {
  ...extension,
  summary: "Sync a calendar now, answering when done (extension)",
  request: { params: IdParam },
  responses: { ...ok(z.object({ calendar: Calendar })), 404: errors[404], ...common },
});

const events = route("listCalendarEvents", {
  ...extension,
  summary: "The caller's meetings between two times, from every connected calendar (extension)",
  description: "In the interface's CalendarEvent shape; `self` marks the caller among the attendees.",
  request: { query: CalendarEventsQuery },
  responses: { ...ok(z.object({ events: z.array(ListedCalendarEvent) })), 400: errors[400], ...common },
});

export function calendarRoutes(services: Services) {
  const app = newRouter();
  app.openapi(add, async (c) =>
    c.json({ calendar: await services.calendars.add(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(list, async (c) => c.json({ calendars: await services.calendars.list(c.get("principal")) }, 200));
  app.openapi(remove, async (c) => {
    await services.calendars.remove(c.get("principal"), c.req.valid("param").id);
    return c.json({ success: true as const }, 200);
  });
  app.openapi(sync, async (c) =>
    c.json({ calendar: await services.calendars.syncNow(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(events, async (c) => {
    const q = c.req.valid("query");
    const range = { from: q.from ? Date.parse(q.from) : undefined, to: q.to ? Date.parse(q.to) : undefined };
    return c.json({ events: await services.calendars.events(c.get("principal"), range) }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const calendarRouteDefs = {
  addCalendar: add,
  listCalendars: list,
  removeCalendar: remove,
  syncCalendar: sync,
  listCalendarEvents: events,
};
