// Correcting a transcript from the note page: the page's script sends a line's new
// words (Enter saves, Esc cancels) with the version it shows; a line changed meanwhile
// is refused with the line as it is now, which the page shows instead.
import { Hono } from "hono";
import type { Services } from "../../services/index.js";
import { TranscriptLineUpdateBody } from "../../shared/schemas/transcript-edits.js";
import { requireViewer, type WebEnv } from "../context.js";
import { jsonRequest } from "../json-request.js";

export function transcriptSteps(services: Services) {
  const app = new Hono<WebEnv>();
  app.use("/notes/*", requireViewer);
  app.post("/notes/:id/transcript/:segmentId", async (c) => {
    const { viewer, body } = await jsonRequest(c, TranscriptLineUpdateBody);
    return c.json(
      await services.notes.transcript.edit(viewer.principal, c.req.param("id"), c.req.param("segmentId"), body),
    );
  });
  return app;
}
