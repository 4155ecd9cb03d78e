// The REST API's types for the CLI, read off the server's own route definitions (and
// so off the zod schemas that validate requests). Types only: nothing here loads.
import type { z } from "zod";
import type { EndpointName } from "../../shared/api/endpoints.js";
import type { audioRouteDefs } from "../../server/routes/v1/audio.js";
import type { recordingRouteDefs } from "../../server/routes/v1/recordings.js";
import type { folderRouteDefs } from "../../server/routes/v1/folders.js";
import type { integrationRouteDefs } from "../../server/routes/v1/integrations.js";
import type { calendarRouteDefs } from "../../server/routes/v1/calendars.js";
import type { recapRouteDefs } from "../../server/routes/v1/recap.js";
import type { exportRouteDefs } from "../../server/routes/v1/export.js";
import type { mailConfigRouteDefs } from "../../server/routes/v1/mail-config.js";
import type { inviteRouteDefs } from "../../server/routes/v1/invites.js";
import type { knowledgeRouteDefs } from "../../server/routes/v1/knowledge.js";
import type { meRouteDefs } from "../../server/routes/v1/me.js";
import type { noteRouteDefs } from "../../server/routes/v1/notes.js";
import type { workspaceRouteDefs } from "../../server/routes/v1/workspace.js";
import type { templateRouteDefs } from "../../server/routes/v1/templates.js";
import type { searchRouteDefs } from "../../server/routes/v1/search.js";
import type { askRouteDefs } from "../../server/routes/v1/ask.js";
import type { actionItemRouteDefs } from "../../server/routes/v1/action-items.js";
import type { transcriptRouteDefs } from "../../server/routes/v1/transcript.js";
import type { noteHistoryRouteDefs } from "../../server/routes/v1/note-history.js";

type RouteDefs = typeof audioRouteDefs &
  typeof recordingRouteDefs &
  typeof folderRouteDefs &
  typeof integrationRouteDefs &
  typeof calendarRouteDefs &
  typeof recapRouteDefs &
  typeof exportRouteDefs &
  typeof mailConfigRouteDefs &
  typeof inviteRouteDefs &
  typeof knowledgeRouteDefs &
  typeof meRouteDefs &
  typeof noteRouteDefs &
  typeof workspaceRouteDefs &
  typeof templateRouteDefs &
  typeof searchRouteDefs &
  typeof askRouteDefs &
  typeof actionItemRouteDefs &
  typeof transcriptRouteDefs &
  typeof noteHistoryRouteDefs;

type JsonSchemaOf<C> = C extends { content: { "application/json": { schema: infer S extends z.ZodType } } } ? S : never;

/** What the endpoint answers with 200. */
export type ApiResponse<N extends EndpointName> = RouteDefs[N] extends { responses: { 200: infer C } }
  ? z.output<JsonSchemaOf<C>>
  : never;

type Part<N extends EndpointName, K extends "params" | "query" | "body" | "headers"> = RouteDefs[N] extends {
  request: { [P in K]: infer S };
}
  ? K extends "body"
    ? z.input<JsonSchemaOf<S>>
    : S extends z.ZodType
      ? z.input<S>
      : never
  : never;

/** What a call sends: path parameters, query, headers and JSON body, each only where the endpoint takes it. */
export type ApiRequest<N extends EndpointName> = ([Part<N, "params">] extends [never]
  ? unknown
  : { params: Part<N, "params"> }) &
  ([Part<N, "query">] extends [never] ? unknown : { query?: Part<N, "query"> }) &
  ([Part<N, "headers">] extends [never] ? unknown : { headers?: Part<N, "headers"> }) &
  ([Part<N, "body">] extends [never] ? unknown : { body: Part<N, "body"> });

/** The resources the CLI prints, as the API answers with them. */
export type Folder = ApiResponse<"createFolder">["folder"];
export type Template = ApiResponse<"getTemplate">["template"];
export type Member = ApiResponse<"getMember">["member"];
