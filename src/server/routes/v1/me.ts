import type { Services } from "../../../services/index.js";
import { Me } from "../../../shared/schemas/workspace.js";
import { newRouter } from "../../../http/context.js";
import { z } from "zod";
import { common, extension, ok, routesFor } from "./openapi-helpers.js";

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

export function meRoutes(services: Services) {
  const app = newRouter();
  app.openapi(me, async (c) => c.json(await services.workspaces.me(c.get("principal")), 200));
  app.openapi(revokeKey, async (c) => {
    await services.apiKeys.revokePresented(c.get("principal"));
    return c.json({ status: "success" as const }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const meRouteDefs = { getMe: me, revokeOwnKey: revokeKey };
