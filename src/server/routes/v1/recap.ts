// Emailing a note's recap to the meeting's participants (extension): what it would
// send, and sending it.
import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { IdParam } from "../../../shared/schemas/common.js";
import { RecapPreview, RecapRecipient, RecapSendBody } from "../../../shared/schemas/recap.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Notes"], { scope: "notes" });

const preview = route("previewRecap", {
  ...extension,
  summary: "What emailing the note's recap would send, and to whom (extension)",
  description:
    "The note's creator alone. Each participant with an email (but the sender) and the link their mail carries: the share link while the note is public, the note itself for a member who may see it, else none.",
  request: { params: IdParam },
  responses: { ...ok(z.object({ recap: RecapPreview })), 400: errors[400], 404: errors[404], ...common },
});

const send = route("sendRecap", {
  ...extension,
  summary: "Email the note's summary and action items to its participants (extension)",
  description:
    "Queued through the mail queue, one mail per recipient. Once a minute per note, 20 sends an hour per person, at most 50 recipients. 409 when the server has no SMTP set up.",
  request: { params: IdParam, body: { ...jsonBody(RecapSendBody), required: false } },
  responses: {
    ...ok(z.object({ recipients: z.array(RecapRecipient) })),
    400: errors[400],
    404: errors[404],
    409: errors[409],
    ...common,
  },
});

export function recapRoutes(services: Services) {
  const app = newRouter();
  app.openapi(preview, async (c) =>
    c.json({ recap: await services.recap.preview(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(send, async (c) => {
    const body = c.req.valid("json") ?? {};
    return c.json(await services.recap.send(c.get("principal"), c.req.valid("param").id, body.recipients), 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const recapRouteDefs = { previewRecap: preview, sendRecap: send };
