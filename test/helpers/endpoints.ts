// Every authenticated REST endpoint with the scope it needs and a request that is
// valid once `ids` hold resources of the caller's workspace.
export interface Ids {
  note: string;
  folder: string;
  invite: string;
  member: string;
  group: string;
  article: string;
  user: string;
}

export interface Endpoint {
  method: string;
  path: (ids: Ids) => string;
  scope: "notes" | "folders" | "users" | null;
  body?: (ids: Ids) => unknown;
  /** Addresses one resource by id (so a foreign id must be 404). */
  byId?: boolean;
}

export const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: () => "/v1/notes", scope: "notes" },
  { method: "POST", path: () => "/v1/notes", scope: "notes", body: () => ({ title: "scoped" }) },
  { method: "GET", path: (i) => `/v1/notes/${i.note}`, scope: "notes", byId: true },
  {
    method: "PATCH",
    path: (i) => `/v1/notes/${i.note}`,
    scope: "notes",
    body: () => ({ title: "renamed" }),
    byId: true,
  },
  { method: "DELETE", path: (i) => `/v1/notes/${i.note}`, scope: "notes", byId: true },
  { method: "GET", path: () => "/v1/folders", scope: "folders" },
  { method: "POST", path: () => "/v1/folders", scope: "folders", body: (i) => ({ name: "f", ownerUserId: i.user }) },
  {
    method: "PATCH",
    path: (i) => `/v1/folders/${i.folder}`,
    scope: "folders",
    body: () => ({ name: "g" }),
    byId: true,
  },
  { method: "DELETE", path: (i) => `/v1/folders/${i.folder}`, scope: "folders", byId: true },
  { method: "GET", path: () => "/v1/workspace/tags", scope: "folders" },
  { method: "POST", path: () => "/v1/workspace/tags", scope: "folders", body: () => ({ name: `t${Math.random()}` }) },
  { method: "GET", path: () => "/v1/invites", scope: "users" },
  { method: "POST", path: () => "/v1/invites", scope: "users", body: () => ({ isUrlInvite: true }) },
  { method: "DELETE", path: (i) => `/v1/invites/${i.invite}`, scope: "users", byId: true },
  { method: "GET", path: () => "/v1/workspace/invites", scope: "users" },
  {
    method: "POST",
    path: () => "/v1/workspace/invites",
    scope: "users",
    body: () => ({ email: `x${Math.random()}@example.com` }),
  },
  { method: "DELETE", path: (i) => `/v1/workspace/invites/${i.invite}`, scope: "users", byId: true },
  { method: "GET", path: () => "/v1/workspace/members", scope: "users" },
  { method: "GET", path: (i) => `/v1/workspace/members/${i.member}`, scope: "users", byId: true },
  {
    method: "PATCH",
    path: (i) => `/v1/workspace/members/${i.member}`,
    scope: "users",
    body: () => ({ groupIds: [] }),
    byId: true,
  },
  { method: "GET", path: () => "/v1/workspace/groups", scope: "users" },
  { method: "POST", path: () => "/v1/workspace/groups", scope: "users", body: () => ({ name: `g${Math.random()}` }) },
  { method: "GET", path: () => "/v1/workspace", scope: "users" },
  {
    method: "POST",
    path: () => "/v1/integrations/automation/webhook",
    scope: "notes",
    body: () => ({ hookUrl: "http://127.0.0.1:9/hook" }),
  },
  { method: "GET", path: () => "/v1/integrations/automation/webhook", scope: "notes" },
  {
    method: "DELETE",
    path: () => "/v1/integrations/automation/webhook",
    scope: "notes",
    body: () => ({ hookUrl: "http://127.0.0.1:9/hook" }),
  },
  { method: "GET", path: () => "/v1/integrations/automation/deliveries", scope: "notes" },
  { method: "GET", path: () => "/v1/knowledge", scope: "notes" },
  { method: "POST", path: () => "/v1/knowledge", scope: "notes", body: () => ({ title: "a", content: "b" }) },
  { method: "DELETE", path: (i) => `/v1/knowledge/${i.article}`, scope: "notes", byId: true },
  { method: "POST", path: (i) => `/v1/notes/${i.note}/reprocess`, scope: "notes", byId: true },
  {
    method: "POST",
    path: () => "/v1/notes/from-audio/generate-upload-url",
    scope: "notes",
    body: () => ({ fileExtension: "mp3", duration: 60 }),
  },
  { method: "GET", path: () => "/v1/me", scope: null },
];

import type { Client } from "./http.js";

/** Creates one of each resource in the caller's workspace and returns their ids. */
export async function seedIds(api: Client): Promise<Ids> {
  const me = (await api("GET", "/v1/me")).body;
  const note = (
    await api("POST", "/v1/notes", {
      title: "seed",
      summary: "seeded",
      transcripts: [{ speaker: "S", text: "seed line", startTimestamp: "00:00", endTimestamp: "00:01" }],
    })
  ).body.note.id;
  const folder = (await api("POST", "/v1/folders", { name: "seed", ownerUserId: me.user.id })).body.folder.id;
  const invite = (await api("POST", "/v1/invites", { isUrlInvite: true })).body.invite.id;
  const group = (await api("POST", "/v1/workspace/groups", { name: `seed${Math.random()}` })).body.userGroup.id;
  const article = (await api("POST", "/v1/knowledge", { title: "seed", content: "seed" })).body.article.id;
  const member = (await api("GET", "/v1/workspace/members")).body.items[0].id;
  return { note, folder, invite, group, article, member, user: me.user.id };
}
