// Invites in the newer shape (/v1/invites) and the older one (/v1/workspace/invites).
import type { Services } from "../../../services/index.js";
import { IdParam, PageQuery, SuccessMessage } from "../../../shared/schemas/common.js";
import {
  InviteCreateBody,
  InviteEnvelope,
  InviteList,
  WorkspaceInviteCreateBody,
  WorkspaceInviteList,
} from "../../../shared/schemas/workspace.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Invites"], { scope: "users" });
const writeErrors = { 400: errors[400], 409: errors[409], 413: errors[413], 415: errors[415], ...common };

const create = route("createInvite", {
  summary: "Invite someone to the workspace",
  description: "email is required unless isUrlInvite is true. Invites expire after 7 days.",
  request: { body: jsonBody(InviteCreateBody) },
  responses: { ...ok(InviteEnvelope), ...writeErrors },
});

const list = route("listInvites", {
  summary: "List pending invites (with folders)",
  request: { query: PageQuery },
  responses: { ...ok(InviteList), 400: errors[400], ...common },
});

const remove = route("deleteInvite", {
  summary: "Delete an invite",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], ...common },
});

const legacyCreate = route("createWorkspaceInvite", {
  summary: "Invite someone to the workspace (older shape, with groups)",
  request: { body: jsonBody(WorkspaceInviteCreateBody) },
  responses: { ...ok(InviteEnvelope), ...writeErrors },
});

const legacyList = route("listWorkspaceInvites", {
  summary: "List pending invites (older shape, with groups)",
  request: { query: PageQuery },
  responses: { ...ok(WorkspaceInviteList), 400: errors[400], ...common },
});

const legacyRemove = route("deleteWorkspaceInvite", {
  ...extension,
  summary: "Delete an invite (older shape; extension)",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], ...common },
});

export function inviteRoutes(services: Services) {
  const app = newRouter();

  app.openapi(create, async (c) =>
    c.json({ invite: await services.invites.create(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(list, async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await services.invites.listWithFolders(c.get("principal"), limit, offset), 200);
  });
  app.openapi(remove, async (c) =>
    c.json(await services.invites.delete(c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(legacyCreate, async (c) =>
    c.json({ invite: await services.invites.create(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(legacyList, async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await services.invites.listWithGroups(c.get("principal"), limit, offset), 200);
  });
  app.openapi(legacyRemove, async (c) =>
    c.json(await services.invites.delete(c.get("principal"), c.req.valid("param").id), 200),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const inviteRouteDefs = {
  createInvite: create,
  listInvites: list,
  deleteInvite: remove,
  createWorkspaceInvite: legacyCreate,
  listWorkspaceInvites: legacyList,
  deleteWorkspaceInvite: legacyRemove,
};
