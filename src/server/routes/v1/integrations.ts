import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { IdParam, PageQuery, Pagination } from "../../../shared/schemas/common.js";
import {
  WebhookDelivery,
  WebhookList,
  WebhookRegisterBody,
  WebhookRegistered,
} from "../../../shared/schemas/integrations.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Integrations"], { scope: "notes" });

const register = route("registerWebhook", {
  summary: "Register an automation-platform webhook",
  description:
    "The workspace's new meetings are POSTed to hookUrl, signed with the returned secret (Standard Webhooks). Registering the same URL again keeps one registration.",
  request: { body: jsonBody(WebhookRegisterBody) },
  responses: { ...ok(WebhookRegistered), 400: errors[400], 413: errors[413], 415: errors[415], ...common },
});

const list = route("listWebhooks", {
  ...extension,
  summary: "List the workspace's webhook registrations (extension)",
  responses: { ...ok(WebhookList), ...common },
});

const remove = route("removeWebhook", {
  ...extension,
  summary: "Remove a webhook registration (extension)",
  request: { body: jsonBody(WebhookRegisterBody) },
  responses: { ...ok(z.object({ status: z.literal("success") })), 400: errors[400], 404: errors[404], ...common },
});

const deliveries = route("listWebhookDeliveries", {
  ...extension,
  summary: "The webhook delivery log, newest first (extension)",
  request: { query: PageQuery },
  responses: {
    ...ok(z.object({ items: z.array(WebhookDelivery), pagination: Pagination })),
    400: errors[400],
    ...common,
  },
});

const redeliver = route("redeliverWebhook", {
  ...extension,
  summary: "Send a delivered or failed webhook event again (extension)",
  description:
    "The same event id and body, signed afresh. A registration disabled after failures is enabled again. 409 while the delivery is still being attempted.",
  request: { params: IdParam },
  responses: { ...ok(z.object({ status: z.literal("success") })), 404: errors[404], 409: errors[409], ...common },
});

export function integrationRoutes(services: Services) {
  const app = newRouter();
  app.openapi(register, async (c) =>
    c.json(await services.webhooks.register(c.get("principal"), c.req.valid("json").hookUrl), 200),
  );
  app.openapi(list, async (c) => c.json({ webhooks: await services.webhooks.list(c.get("principal")) }, 200));
  app.openapi(deliveries, async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await services.webhooks.deliveries(c.get("principal"), limit, offset), 200);
  });
  app.openapi(redeliver, async (c) =>
    c.json(await services.webhooks.redeliver(c.get("principal"), c.req.valid("param").id), 200),
  );
  app.openapi(remove, async (c) =>
    c.json(await services.webhooks.remove(c.get("principal"), c.req.valid("json").hookUrl), 200),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const integrationRouteDefs = {
  registerWebhook: register,
  listWebhooks: list,
  removeWebhook: remove,
  listWebhookDeliveries: deliveries,
  redeliverWebhook: redeliver,
};
