// Request bodies refuse what they do not know: a field an operation does not take is a
// 400 that names it, on every operation with a JSON body (a misspelt visibility or
// folderIds must never decide silently who sees a meeting). Each operation is sent a
// body it accepts plus one unknown field, so the unknown field alone is what it refuses;
// the OpenAPI document says the same with additionalProperties: false.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedIds, type Ids } from "../helpers/endpoints.js";
import { appClient, startApp, type TestApp } from "../helpers/app.js";
import type { Client } from "../helpers/http.js";

type Json = Record<string, any>;

/** A body each operation accepts, by operationId. An operation missing here fails the test: add it. */
const VALID: Record<string, (ids: Ids) => Json> = {
  generateUploadUrl: () => ({ fileExtension: "mp3", duration: 60 }),
  createNoteFromAudio: () => ({ audioUrl: "notula://audio/upl_none", title: "t" }),
  startRecording: () => ({ format: "webm", title: "t" }),
  createFolder: (i) => ({ name: "f", ownerUserId: i.user }),
  updateFolder: () => ({ name: "g" }),
  registerWebhook: () => ({ hookUrl: "http://127.0.0.1:9/hook" }),
  removeWebhook: () => ({ hookUrl: "http://127.0.0.1:9/hook" }),
  addCalendar: () => ({ kind: "ics", url: "https://calendar.example.invalid/basic.ics" }),
  createInvite: () => ({ isUrlInvite: true }),
  createWorkspaceInvite: () => ({ email: `x${Math.random()}@example.com` }),
  createArticle: () => ({ title: "a", content: "b" }),
  ask: () => ({ question: "What did we decide?" }),
  updateNote: () => ({ title: "renamed" }),
  createNote: () => ({ title: "t" }),
  updateWorkspace: () => ({ name: "W" }),
  updateMember: () => ({ groupIds: [] }),
  createGroup: () => ({ name: `g${Math.random()}` }),
  createTag: () => ({ name: `t${Math.random()}` }),
  enhanceNote: () => ({}),
  sendRecap: () => ({ recipients: ["ana@example.com"] }),
  updateNotifications: () => ({ noteReady: false }),
  renameSpeaker: () => ({ label: "S", name: "Sam" }),
  createTemplate: () => ({ copyFrom: "tpl_builtin_general", name: "Copy" }),
  updateTemplate: () => ({ name: "Renamed" }),
  updateActionItem: () => ({ done: true }),
  updateTranscriptLine: () => ({ version: 0, text: "Corrected." }),
  splitTranscriptLine: () => ({ version: 0, atWord: 1 }),
  updateAiConfig: () => ({ summaryLanguage: "en" }),
  updateMailConfig: () => ({ smtp: null }),
};

/** Nested objects refuse unknown fields too, named with their path. */
const NESTED: { operationId: string; body: Json; field: string }[] = [
  {
    operationId: "createNote",
    body: { title: "t", participants: [{ name: "Ana", emial: "ana@example.com" }] },
    field: "participants.0.emial",
  },
  {
    operationId: "createNote",
    body: { title: "t", transcripts: [{ text: "hi", startTimestamp: "00:00", endTimestamp: "00:01", who: "A" }] },
    field: "transcripts.0.who",
  },
  {
    operationId: "createNote",
    body: { title: "t", calendarEvent: { id: "ev1", attendees: [{ self: true, email: "", displayName: "", x: 1 }] } },
    field: "calendarEvent.attendees.0.x",
  },
  { operationId: "updateWorkspace", body: { settings: { defaultLanguag: "en" } }, field: "settings.defaultLanguag" },
  { operationId: "updateAiConfig", body: { llm: { modle: "m" } }, field: "llm.modle" },
  {
    operationId: "updateMailConfig",
    body: { smtp: { host: "mail.example", port: 587, security: "tls", pasword: "x" } },
    field: "smtp.pasword",
  },
];

interface Operation {
  id: string;
  method: string;
  path: string;
  schema: Json;
}

let server: TestApp;
let api: Client;
let ids: Ids;
let doc: Json;
let operations: Operation[];

beforeAll(async () => {
  server = await startApp({ args: ["--no-rate-limit", "--allow-private-webhooks"] });
  api = appClient(server, server.key);
  ids = await seedIds(api);
  doc = (await (await server.fetch("/v1/openapi.json")).json()) as Json;
  operations = Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
    Object.entries(ops as Json)
      .filter(([, op]) => op.requestBody?.content?.["application/json"])
      .map(([method, op]) => ({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        schema: op.requestBody.content["application/json"].schema,
      })),
  );
}, 60_000);
afterAll(() => server?.stop());

const pathOf = (op: Operation | undefined, i: Ids) =>
  op!.path
    .replace("/v1/templates/{id}", "/v1/templates/TEMPLATE")
    .replace(
      /\{id\}/,
      op!.path.startsWith("/v1/folders") ? i.folder : op!.path.includes("members") ? i.member : i.note,
    );

describe("strict request bodies", () => {
  it("every operation with a JSON body refuses one unknown field by name, and takes the same body without it", async () => {
    expect(operations.length).toBeGreaterThan(15);
    const template = (await api("POST", "/v1/templates", { copyFrom: "tpl_builtin_general", name: "Mine" })).body
      .template.id;
    const untested = operations.filter((op) => !VALID[op.id]).map((op) => op.id);
    expect(untested, "operations with a JSON body and no valid body in this test").toEqual([]);
    for (const op of operations) {
      const path = pathOf(op, ids).replace("TEMPLATE", template);
      const refused = await api(op.method, path, { ...VALID[op.id](ids), notulaUnknownField: 1 });
      expect(refused.status, `${op.method} ${op.path}`).toBe(400);
      expect(refused.body.error.code).toBe("bad_request");
      expect(refused.body.error.message, `${op.method} ${op.path}`).toMatch(/notulaUnknownField: unknown field/);
      // The same body without it is not refused for its shape (it may still be 404 or 409 for what it says).
      const accepted = await api(op.method, path, VALID[op.id](ids));
      expect(accepted.status, `${op.id}: ${JSON.stringify(accepted.body)}`).not.toBe(400);
      expect(accepted.status).toBeLessThan(500);
    }
  });

  it("nested objects refuse unknown fields, named with their path", async () => {
    for (const { operationId, body, field } of NESTED) {
      const op = operations.find((o) => o.id === operationId);
      const r = await api(op!.method, pathOf(op, ids), body);
      expect(r.status, field).toBe(400);
      expect(r.body.error.message).toContain(`${field}: unknown field`);
    }
  });

  it("tagIds is the alias of folderIds on create as on update, marked deprecated; both at once is refused", async () => {
    const folder = (await api("POST", "/v1/folders", { name: "Alias", ownerUserId: ids.user })).body.folder.id;
    const created = await api("POST", "/v1/notes", { title: "Filed by alias", tagIds: [folder] });
    expect(created.status).toBe(200);
    expect(created.headers.get("deprecation")).toBe("true");
    expect(created.body.note.tags.map((t: Json) => t.id)).toEqual([folder]);
    const both = await api("POST", "/v1/notes", { title: "Both", tagIds: [folder], folderIds: [folder] });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/folderIds or its deprecated alias tagIds/);
  });

  it("the OpenAPI document says additionalProperties: false for every object a request body holds", () => {
    const open: string[] = [];
    const visit = (schema: Json | undefined, at: string, depth = 0): void => {
      if (!schema || depth > 8) return;
      if (schema.$ref) return visit(doc.components.schemas[schema.$ref.split("/").pop()], at, depth + 1);
      for (const k of ["allOf", "anyOf", "oneOf"]) for (const s of schema[k] ?? []) visit(s, at, depth + 1);
      if (schema.items) visit(schema.items, `${at}[]`, depth + 1);
      if (schema.type === "object" || schema.properties) {
        if (schema.additionalProperties !== false) open.push(at || "(body)");
        for (const [k, s] of Object.entries(schema.properties ?? {})) visit(s as Json, `${at}.${k}`, depth + 1);
      }
    };
    for (const op of operations) visit(op.schema, `${op.id}`);
    expect(open).toEqual([]);
  });
});
