import type { Services } from "../../../services/index.js";
import { Me, NotificationSettings, NotificationSettingsBody } from "../../../shared/schemas/workspace.js";
import { newRouter } from "../../../http/context.js";
import { z } from "zod";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const me = routesFor(["Current user"])("getMe", {
  summary: "The key's user, workspace and scopes",
  description: "Any valid key may call it.",
  responses: { ...ok(Me), 401: common[401], 429: common[429] },
});

const revokeKey = routesFor(["Current user"])("revokeOwnKey", {
  ...extension,
  summary: "Revoke the API key this request is made with (extension)",
  description: "Any valid key may call it; it works for nothing afterwards. `notula logout` uses it.",
  responses: { ...ok(z.object({ status: z.literal("success") })), 401: common[401], 429: common[429] },
});

const getNotifications = routesFor(["Current user"])("getNotifications", {
  ...extension,
  summary: "The mail the caller asked for about their own notes (extension)",
  description: "`mailConfigured` says whether mail is set up for the workspace (its own SMTP server or the server's).",
  responses: { ...ok(z.object({ notifications: NotificationSettings, mailConfigured: z.boolean() })), ...common },
});

const updateNotifications = routesFor(["Current user"])("updateNotifications", {
  ...extension,
  summary: "Turn the caller's note mail on or off (extension)",
  request: { body: jsonBody(NotificationSettingsBody) },
  responses: {
    ...ok(z.object({ notifications: NotificationSettings, mailConfigured: z.boolean() })),
    400: errors[400],
    ...common,
  },
});

export function meRoutes(services: Services) {
  const app = newRouter();
  app.openapi(me, async (c) => c.json(await services.workspaces.me(c.get("principal")), 200));
  app.openapi(revokeKey, async (c) => {
    await services.apiKeys.revokePresented(c.get("principal"));
    return c.json({ status: "success" as const }, 200);
  });
  const notifications = async (p: Parameters<typeof services.notifications.get>[0]) => ({
    notifications: await services.notifications.get(p),
    mailConfigured: await services.notifications.mailConfigured(p),
  });
  app.openapi(getNotifications, async (c) => c.json(await notifications(c.get("principal")), 200));
  app.openapi(updateNotifications, async (c) => {
    await services.notifications.set(c.get("principal"), c.req.valid("json"));
    return c.json(await notifications(c.get("principal")), 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const meRouteDefs = { getMe: me, revokeOwnKey: revokeKey, getNotifications, updateNotifications };
