// What a note's page asks of its processing: process it again, write its enhanced note
// again with a template, name its speakers, share it. Each refusal (a note being processed, a
// person's edit or corrections that would be lost) is shown on the note's page.
import type { Hono } from "hono";
import { AppError } from "../../core/errors.js";
import type { Services } from "../../services/index.js";
import { csrfOk, viewerOf, type WebContext, type WebEnv } from "../context.js";
import { textField, textFields } from "../form-fields.js";
import { formExpired } from "../form-expired.js";
import type { Principal } from "../../core/principal.js";
import { needsPublicConfirmation, publicWarning } from "../visibility.js";

type NotePage = (
  c: WebContext,
  id: string,
  extra?: { error?: string; notice?: string },
  status?: 200 | 400 | 409,
) => Promise<Response>;

export function noteActions(
  app: Hono<WebEnv>,
  services: Services,
  notePage: NotePage,
  /** The names of the private folders among these ids (those the person can see). */
  privateFolderNames: (p: Principal, ids: string[]) => Promise<string[]>,
) {
  app.post("/notes/:id/reprocess", async (c) => {
    const id = c.req.param("id");
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return formExpired(c);
    try {
      await services.notes.reprocess(viewerOf(c).principal, id, {
        discardCorrections: textField(f, "discardCorrections") === "true",
        discardEdits: textField(f, "discardEdits") === "true",
      });
    } catch (err) {
      if (err instanceof AppError && err.status === 409) return notePage(c, id, { error: err.message }, 409);
      throw err;
    }
    return c.redirect(`/notes/${encodeURIComponent(id)}`, 303);
  });

  app.post("/notes/:id/enhance", async (c) => {
    const id = c.req.param("id");
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return formExpired(c);
    try {
      await services.notes.enhance(viewerOf(c).principal, id, textField(f, "templateId") || undefined, {
        discardEdits: textField(f, "discardEdits") === "true",
      });
    } catch (err) {
      if (err instanceof AppError && (err.status === 400 || err.status === 409))
        return notePage(c, id, { error: err.message }, err.status);
      throw err;
    }
    return c.redirect(`/notes/${encodeURIComponent(id)}`, 303);
  });

  // A version from the page's history made the note's again.
  app.post("/notes/:id/history/:versionId/restore", async (c) => {
    const id = c.req.param("id");
    const f = await c.req.parseBody();
    if (!(await csrfOk(c, f))) return formExpired(c);
    try {
      await services.notes.restore(viewerOf(c).principal, id, c.req.param("versionId"));
    } catch (err) {
      if (err instanceof AppError && (err.status === 400 || err.status === 409))
        return notePage(c, id, { error: err.message }, err.status);
      throw err;
    }
    return c.redirect(`/notes/${encodeURIComponent(id)}?saved=1#history`, 303);
  });

  // The Share panel: make the note public (its link), stop sharing, or say what the link shows.
  app.post("/notes/:id/share", async (c) => {
    const id = c.req.param("id");
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const viewer = viewerOf(c);
    const action = textField(f, "action");
    if (action === "public") {
      const { note } = await services.notes.view(viewer.principal, id);
      const privateFolders = await privateFolderNames(
        viewer.principal,
        note.tags.map((t) => t.id),
      );
      if (needsPublicConfirmation(note.visibility, "public", privateFolders) && textField(f, "confirmPublic") !== "1")
        return notePage(c, id, { error: publicWarning(privateFolders) }, 400);
      await services.notes.update(viewer.principal, id, { visibility: "public" });
    } else if (action === "stop") await services.notes.update(viewer.principal, id, { visibility: "workspace" });
    else if (action === "options")
      await services.notes.setShareShows(viewer.principal, id, {
        transcript: textField(f, "shareTranscript") === "1",
        recording: textField(f, "shareRecording") === "1",
      });
    else return notePage(c, id, { error: "Choose what to do with the link." }, 400);
    return c.redirect(`/notes/${encodeURIComponent(id)}?shared=${action}#share`, 303);
  });

  app.post("/notes/:id/speakers", async (c) => {
    const id = c.req.param("id");
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const labels = textFields(f, "label");
    const names = textFields(f, "name");
    if (labels.length !== names.length) return notePage(c, id, { error: "Every speaker needs its name field." }, 400);
    const viewer = viewerOf(c);
    const current = new Map((await services.notes.speakers(viewer.principal, id)).map((s) => [s.label, s]));
    // "Confirm" on a name a voice print offered: that speaker is named so, by a person now.
    const confirm = typeof f.confirm === "string" ? current.get(f.confirm) : undefined;
    if (confirm?.suggested)
      await services.notes.renameSpeaker(viewer.principal, id, { label: confirm.label, name: confirm.name });
    for (const [i, label] of labels.entries()) {
      const name = names[i].trim().slice(0, 200);
      const was = current.get(label);
      // A field left as it was changes nothing (a suggestion stays one until confirmed).
      if (was === undefined || (name || label) === was.name) continue;
      await services.notes.renameSpeaker(viewer.principal, id, { label, name: name || null });
    }
    return c.redirect(`/notes/${encodeURIComponent(id)}?saved=1`, 303);
  });
}
