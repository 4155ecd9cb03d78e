import type { Services } from "../../../services/index.js";
import { IdParam, SuccessMessage } from "../../../shared/schemas/common.js";
import {
  FolderCreateBody,
  FolderEnvelope,
  FolderItemEnvelope,
  FolderList,
  FolderMemberParams,
  FolderMembers,
  FolderUpdateBody,
} from "../../../shared/schemas/folders.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Folders"], { scope: "folders" });

const create = route("createFolder", {
  summary: "Create a folder",
  request: { body: jsonBody(FolderCreateBody) },
  responses: { ...ok(FolderEnvelope), 400: errors[400], 413: errors[413], 415: errors[415], ...common },
});

const list = route("listFolders", {
  summary: "List folders",
  description: "Every shared folder of the workspace, and the private folders the caller belongs to.",
  responses: { ...ok(FolderList), ...common },
});

const get = route("getFolder", {
  ...extension,
  summary: "Read a folder (extension)",
  description: "A private folder the caller is outside of is not found.",
  request: { params: IdParam },
  responses: { ...ok(FolderItemEnvelope), 404: errors[404], ...common },
});

const update = route("updateFolder", {
  ...extension,
  summary: "Update a folder (extension)",
  request: { params: IdParam, body: jsonBody(FolderUpdateBody) },
  responses: {
    ...ok(FolderEnvelope),
    400: errors[400],
    404: errors[404],
    413: errors[413],
    415: errors[415],
    ...common,
  },
});

const remove = route("deleteFolder", {
  ...extension,
  summary: "Delete a folder (extension)",
  description: "Its notes stay, unfiled from it; its subfolders move up one level.",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], ...common },
});

const listMembers = route("listFolderMembers", {
  ...extension,
  summary: "List a folder's members (extension)",
  description: "Who sees the folder and its notes while it is private. A private folder the caller is not in is 404.",
  request: { params: IdParam },
  responses: { ...ok(FolderMembers), 404: errors[404], ...common },
});

const addMember = route("addFolderMember", {
  ...extension,
  summary: "Add a member to a folder (extension)",
  description: "The folder's owner or an admin; the user must be a member of the workspace.",
  request: { params: FolderMemberParams },
  responses: { ...ok(FolderMembers), 400: errors[400], 404: errors[404], ...common },
});

const removeMember = route("removeFolderMember", {
  ...extension,
  summary: "Take a member out of a folder (extension)",
  description: "The folder's owner or an admin; the owner stays a member.",
  request: { params: FolderMemberParams },
  responses: { ...ok(FolderMembers), 404: errors[404], 409: errors[409], ...common },
});

export function folderRoutes(services: Services) {
  const app = newRouter();
  app.openapi(create, async (c) =>
    c.json({ folder: await services.folders.create(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(list, async (c) => c.json({ folders: await services.folders.list(c.get("principal")) }, 200));
  app.openapi(get, async (c) =>
    c.json({ folder: await services.folders.get(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(update, async (c) =>
    c.json(
      { folder: await services.folders.update(c.get("principal"), c.req.valid("param").id, c.req.valid("json")) },
      200,
    ),
  );
  app.openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    await services.folders.delete(c.get("principal"), id);
    return c.json({ success: true, message: `Folder ${id} deleted.` }, 200);
  });
  app.openapi(listMembers, async (c) =>
    c.json({ members: await services.folders.members(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(addMember, async (c) => {
    const { id, userId } = c.req.valid("param");
    return c.json({ members: await services.folders.addMember(c.get("principal"), id, userId) }, 200);
  });
  app.openapi(removeMember, async (c) => {
    const { id, userId } = c.req.valid("param");
    return c.json({ members: await services.folders.removeMember(c.get("principal"), id, userId) }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const folderRouteDefs = {
  createFolder: create,
  listFolders: list,
  getFolder: get,
  updateFolder: update,
  deleteFolder: remove,
  listFolderMembers: listMembers,
  addFolderMember: addMember,
  removeFolderMember: removeMember,
};
