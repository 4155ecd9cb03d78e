// Settings → Calendars: connect, sync now, disconnect. Each person's own.
import { viewerOf } from "../../context.js";
import { CalendarsPage } from "../../pages/calendars.js";
import { render } from "../../render.js";
import type { Hono } from "hono";
import type { Services } from "../../../services/index.js";
import type { WebEnv } from "../../context.js";
import { text, param, type Page, type SettingsKit } from "./kit.js";

export function calendarSettings(app: Hono<WebEnv>, services: Services, { form, flash }: SettingsKit) {
  const calendarsPage: Page = async (c, extra = {}, status = 200) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <CalendarsPage viewer={viewer} calendars={await services.calendars.list(viewer.principal)} {...extra} />,
      status,
    );
  };
  const result = (c: Parameters<Page>[0], cal: { name: string; lastError: string | null; eventCount: number }) =>
    flash.redirect(c, "/settings/calendars", {
      // The failure itself is shown on the calendar's row, where it stays until a sync succeeds.
      notice: cal.lastError
        ? `${cal.name} could not be read; see why below.`
        : `${cal.name}: ${cal.eventCount} ${cal.eventCount === 1 ? "meeting" : "meetings"} read.`,
    });
  app.get("/settings/calendars", async (c) => calendarsPage(c, await flash.take(c)));
  app.post(
    "/settings/calendars",
    form(
      calendarsPage,
      async (c, f) => {
        const kind = text(f, "kind") === "caldav" ? "caldav" : "ics";
        const added = await services.calendars.add(viewerOf(c).principal, {
          kind,
          url: text(f, "url"),
          // The form shows both fields; an ICS address uses neither.
          ...(kind === "caldav" ? { username: text(f, "username"), password: text(f, "password") } : {}),
        });
        return result(c, added);
      },
      { labels: { url: "Address", username: "User name" } },
    ),
  );
  app.post(
    "/settings/calendars/:id/sync",
    form(calendarsPage, async (c) =>
      result(c, await services.calendars.syncNow(viewerOf(c).principal, param(c, "id"))),
    ),
  );
  app.post(
    "/settings/calendars/:id/remove",
    form(calendarsPage, async (c) => {
      await services.calendars.remove(viewerOf(c).principal, param(c, "id"));
      return flash.redirect(c, "/settings/calendars", { notice: "Disconnected; notes keep their meetings." });
    }),
  );
}
