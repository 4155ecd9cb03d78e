import type { Services } from "../../../services/index.js";
import { IdParam } from "../../../shared/schemas/common.js";
import {
  ActionItemEnvelope,
  ActionItemList,
  ActionItemListQuery,
  ActionItemUpdateBody,
} from "../../../shared/schemas/action-items.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Action items"], { scope: "notes" });

const list = route("listActionItems", {
  ...extension,
  summary: "List action items (extension)",
  description:
    "The tasks of the notes the caller may read, each with its owner, due date, whether it is done and the moment it was said; the soonest due first, those with no date last. `assignee=me` for the caller's own.",
  request: { query: ActionItemListQuery },
  responses: { ...ok(ActionItemList), 400: errors[400], ...common },
});

const update = route("updateActionItem", {
  ...extension,
  summary: "Tick an action item done, give it to someone, or set its day (extension)",
  description:
    "Whoever may edit the note may change its items; the note's task line is rewritten to match. An item its note no longer has (written again since) is 404.",
  request: { params: IdParam, body: jsonBody(ActionItemUpdateBody) },
  responses: {
    ...ok(ActionItemEnvelope),
    400: errors[400],
    404: errors[404],
    413: errors[413],
    415: errors[415],
    ...common,
  },
});

export function actionItemRoutes(services: Services) {
  const app = newRouter();
  app.openapi(list, async (c) =>
    c.json(await services.actionItems.list(c.get("principal"), c.req.valid("query")), 200),
  );
  app.openapi(update, async (c) =>
    c.json(
      {
        actionItem: await services.actionItems.update(c.get("principal"), c.req.valid("param").id, c.req.valid("json")),
      },
      200,
    ),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const actionItemRouteDefs = { listActionItems: list, updateActionItem: update };
