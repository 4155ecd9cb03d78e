// The workspace itself, its members, user groups and workspace tags.
import type { Services } from "../../../services/index.js";
import { IdParam, SuccessMessage } from "../../../shared/schemas/common.js";
import {
  MemberEnvelope,
  MemberList,
  MemberListQuery,
  MemberUpdateBody,
  UserGroup,
  UserGroupCreateBody,
  UserGroupList,
  WorkspaceEnvelope,
  WorkspaceUpdateBody,
  WorkspaceTag,
  WorkspaceTagCreateBody,
  WorkspaceTagList,
} from "../../../shared/schemas/workspace.js";
import { z } from "zod";
import { Readable } from "node:stream";
import { attachment } from "../../../shared/export/index.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const users = { scope: "users" } as const;
const workspaceRoute = routesFor(["Workspace"], users);
const memberRoute = routesFor(["Members"], users);
const groupRoute = routesFor(["Groups"], users);
const tagRoute = routesFor(["Tags"], { scope: "folders" });
const writeErrors = { 400: errors[400], 409: errors[409], 413: errors[413], 415: errors[415], ...common };

const getWorkspace = workspaceRoute("getWorkspace", {
  ...extension,
  summary: "Read the workspace: name, settings and allowed email domains",
  responses: { ...ok(WorkspaceEnvelope), ...common },
});

const archiveRoute = routesFor(["Workspace"], { scope: "notes" });
const getWorkspaceArchive = archiveRoute("getWorkspaceArchive", {
  ...extension,
  summary:
    "The workspace as one archive: its folders, its notes with their transcripts, and their recordings (extension)",
  description:
    "For admins: a gzip'd tar of notula-archive.json (the folders and the notes), notes/{id}.json (each note as GET /v1/notes/{id} returns it) and audio/{id}.{ext} (each recording). It holds every note the admin may read. `notula import` on another server takes it back in whole. Streamed as it is written: a workspace of any size.",
  responses: {
    200: { description: "The archive.", content: { "application/gzip": { schema: z.string() } } },
    ...common,
  },
});

const updateWorkspace = workspaceRoute("updateWorkspace", {
  ...extension,
  summary: "Change the workspace's name, allowed email domains and note defaults (extension)",
  description:
    "allowedEmailDomains replaces the list: someone signing in through the single sign-on provider with a verified email of one of these domains joins as a member. settings.meetingDefaultPermission 'only-me' makes new notes private to their creator unless the request names a visibility.",
  request: { body: jsonBody(WorkspaceUpdateBody) },
  responses: { ...ok(WorkspaceEnvelope), ...writeErrors },
});

const listMembers = memberRoute("listMembers", {
  summary: "List members",
  request: { query: MemberListQuery },
  responses: { ...ok(MemberList), 400: errors[400], ...common },
});

const getMember = memberRoute("getMember", {
  summary: "Read a member",
  request: { params: IdParam },
  responses: { ...ok(MemberEnvelope), 404: errors[404], ...common },
});

const updateMember = memberRoute("updateMember", {
  summary: "Set a member's user groups",
  description: "groupIds replaces the member's groups.",
  request: { params: IdParam, body: jsonBody(MemberUpdateBody) },
  responses: { ...ok(MemberEnvelope), 404: errors[404], ...writeErrors },
});

const removeMember = memberRoute("removeMember", {
  ...extension,
  summary: "Remove a member (extension)",
  description:
    "Admins only. The member's API keys and OAuth grants in this workspace are revoked and their browser sessions end. Nobody removes themselves, and the last admin stays.",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], 409: errors[409], ...common },
});

const listGroups = groupRoute("listGroups", {
  summary: "List user groups",
  responses: { ...ok(UserGroupList), ...common },
});

const createGroup = groupRoute("createGroup", {
  ...extension,
  summary: "Create a user group (extension)",
  request: { body: jsonBody(UserGroupCreateBody) },
  responses: { ...ok(z.object({ userGroup: UserGroup })), ...writeErrors },
});

const listTags = tagRoute("listTags", {
  summary: "List workspace tags",
  responses: { ...ok(WorkspaceTagList), ...common },
});

const createTag = tagRoute("createTag", {
  ...extension,
  summary: "Create a workspace tag (extension)",
  request: { body: jsonBody(WorkspaceTagCreateBody) },
  responses: { ...ok(z.object({ tag: WorkspaceTag })), ...writeErrors },
});

export function workspaceRoutes(services: Services) {
  const app = newRouter();
  const dir = services.directory;
  app.openapi(getWorkspace, async (c) =>
    c.json({ workspace: await services.workspaces.get(c.get("principal").workspaceId) }, 200),
  );
  app.openapi(getWorkspaceArchive, async (c) => {
    const { fileName, stream } = await services.archive.open(c.get("principal"));
    return c.body(Readable.toWeb(stream) as ReadableStream, 200, {
      "content-type": "application/gzip",
      "content-disposition": attachment(fileName),
    }) as never;
  });
  app.openapi(updateWorkspace, async (c) =>
    c.json({ workspace: await services.workspaces.update(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(listMembers, async (c) => c.json(await dir.listMembers(c.get("principal"), c.req.valid("query")), 200));
  app.openapi(getMember, async (c) =>
    c.json({ member: await dir.getMember(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(updateMember, async (c) =>
    c.json(
      { member: await dir.setMemberGroups(c.get("principal"), c.req.valid("param").id, c.req.valid("json").groupIds) },
      200,
    ),
  );
  app.openapi(removeMember, async (c) => {
    const { id } = c.req.valid("param");
    await dir.removeMember(c.get("principal"), id);
    return c.json({ success: true, message: `Member ${id} removed.` }, 200);
  });
  app.openapi(listGroups, async (c) => c.json({ userGroups: await dir.listGroups(c.get("principal")) }, 200));
  app.openapi(createGroup, async (c) =>
    c.json({ userGroup: await dir.createGroup(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(listTags, async (c) => c.json({ tags: await dir.listTags(c.get("principal")) }, 200));
  app.openapi(createTag, async (c) =>
    c.json({ tag: await dir.createTag(c.get("principal"), c.req.valid("json")) }, 200),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const workspaceRouteDefs = {
  getWorkspace: getWorkspace,
  getWorkspaceArchive: getWorkspaceArchive,
  updateWorkspace: updateWorkspace,
  listMembers: listMembers,
  getMember: getMember,
  removeMember: removeMember,
  updateMember: updateMember,
  listGroups: listGroups,
  createGroup: createGroup,
  listTags: listTags,
  createTag: createTag,
};
