// The note page's meeting: who was there (edited by hand), unlinking its calendar event,
// and "Email the recap" (a preview of the mail and its recipients, then the send). The
// services decide who may do each.
import { Hono } from "hono";
import { AppError } from "../../core/errors.js";
import type { Services } from "../../services/index.js";
import { csrfOk, requireViewer, viewerOf, type WebContext, type WebEnv } from "../context.js";
import { RecapPage } from "../pages/recap.js";
import { parsePersonLine } from "../../shared/person-line.js";
import { participantFrom } from "../../services/note-meeting.js";
import { textFields } from "../form-fields.js";
import { render } from "../render.js";
import { formExpired } from "../form-expired.js";
import { createFlash } from "../flash.js";

export function noteMeetingPages(services: Services, opts: { publicUrl: string }) {
  const app = new Hono<WebEnv>();
  const flash = createFlash(services, opts.publicUrl);
  app.use("/notes/:id/recap", requireViewer);
  app.use("/notes/:id/participants", requireViewer);
  app.use("/notes/:id/unlink", requireViewer);
  app.use("/notes/:id/link", requireViewer);

  const back = (c: WebContext, notice: string) =>
    flash.redirect(c, `/notes/${encodeURIComponent(c.req.param("id") ?? "")}`, { notice });

  app.post("/notes/:id/participants", async (c) => {
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const people = textFields(f, "participant")
      .map(parsePersonLine)
      .filter((x): x is { name: string; email: string } => x !== null);
    const { participants } = await services.notes.update(viewerOf(c).principal, c.req.param("id"), {
      participants: people.slice(0, 500).map((x) => participantFrom(x)),
    });
    return back(c, `Saved: ${participants.length} ${participants.length === 1 ? "participant" : "participants"}.`);
  });

  app.post("/notes/:id/link", async (c) => {
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return formExpired(c);
    const eventId = typeof f.eventId === "string" ? f.eventId : "";
    if (!eventId) return back(c, "Choose the meeting to link the note to.");
    const { calendarEvent } = await services.notes.update(viewerOf(c).principal, c.req.param("id"), {
      calendarEventId: eventId,
    });
    return back(c, `Linked to “${calendarEvent?.title ?? ""}”; its attendees are among the participants now.`);
  });

  app.post("/notes/:id/unlink", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return formExpired(c);
    await services.notes.update(viewerOf(c).principal, c.req.param("id"), { calendarEventId: null });
    return back(c, "Unlinked from the meeting; people you added by hand stay.");
  });

  const page = async (c: WebContext, error?: string, status: 200 | 400 | 409 | 429 = 200) => {
    const id = c.req.param("id") ?? "";
    const p = viewerOf(c).principal;
    const recap = await services.recap.preview(p, id);
    const { title } = await services.notes.get(p, id);
    return render(c, <RecapPage viewer={viewerOf(c)} noteId={id} title={title} recap={recap} error={error} />, status);
  };

  app.get("/notes/:id/recap", (c) => page(c));
  app.post("/notes/:id/recap", async (c) => {
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const id = c.req.param("id");
    const chosen = textFields(f, "recipients");
    if (!chosen.length) return page(c, "Choose at least one person to send the recap to.", 400);
    try {
      const { recipients } = await services.recap.send(viewerOf(c).principal, id, chosen);
      return flash.redirect(c, `/notes/${encodeURIComponent(id)}`, {
        notice: `The recap is on its way to ${recipients.length} ${recipients.length === 1 ? "person" : "people"}.`,
      });
    } catch (err) {
      if (err instanceof AppError && [400, 409, 429].includes(err.status))
        return page(c, err.message, err.status as 400 | 409 | 429);
      throw err;
    }
  });
  return app;
}
