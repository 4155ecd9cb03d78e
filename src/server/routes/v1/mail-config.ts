// The workspace's own mail server (extension, admins): read, change, send a test.
import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { MailConfig, MailConfigUpdateBody, MailTestResult } from "../../../shared/schemas/mail-config.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Workspace"], { scope: "users" });
const Envelope = z.object({ mail: MailConfig });

const get = route("getMailConfig", {
  ...extension,
  summary: "How the workspace's mail goes out (extension; admins only)",
  description:
    "Its own SMTP server if an admin set one, else the server's (NOTULA_SMTP_URL), else none. The password is never returned, only whether one is set.",
  responses: { ...ok(Envelope), ...common },
});

const update = route("updateMailConfig", {
  ...extension,
  summary: "Set the workspace's own SMTP server and sender (extension; admins only)",
  description:
    "`smtp: null` goes back to the server's. The password is stored encrypted; left out, the stored one is kept while host and username stay the same. Servers on loopback or private networks are refused unless the server allows them (--allow-private-smtp).",
  request: { body: jsonBody(MailConfigUpdateBody) },
  responses: { ...ok(Envelope), 400: errors[400], ...common },
});

const test = route("testMailConfig", {
  ...extension,
  summary: "Send a test mail to the caller, now (extension; admins only)",
  description:
    "Sent at once, not queued, so that the answer says whether the SMTP server took it and, if not, what it said. It goes to the caller's own address alone; ten an hour per workspace.",
  responses: { ...ok(MailTestResult), ...common },
});

export function mailConfigRoutes(services: Services) {
  const app = newRouter();
  app.openapi(get, async (c) => c.json({ mail: await services.mail.get(c.get("principal")) }, 200));
  app.openapi(update, async (c) =>
    c.json({ mail: await services.mail.update(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(test, async (c) => c.json(await services.mail.test(c.get("principal")), 200));
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const mailConfigRouteDefs = { getMailConfig: get, updateMailConfig: update, testMailConfig: test };
