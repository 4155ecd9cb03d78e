// Shared pieces of route definitions: a factory per resource, and the error
// responses every route documents.
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { endpoints, type EndpointName } from "../../../shared/api/endpoints.js";
import { ErrorBody } from "../../../shared/schemas/common.js";
import type { AppEnv } from "../../../http/context.js";
import { requireEnterprise, requireScope } from "../../../http/auth.js";
import type { ScopeName } from "../../../core/principal.js";

/** An error response with its own description: what makes this route answer it. */
export const refused = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorBody } },
});
const err = refused;

export const errors = {
  400: err("Invalid input: the message names the field."),
  401: err("Missing, invalid or revoked API key."),
  403: err("The key lacks the scope, the plan does not include the operation, or the caller's role does not allow it."),
  404: err("Not found in this workspace."),
  409: err("Conflicts with existing data."),
  413: err("The JSON body is larger than 1 MiB."),
  415: err("The body is not JSON."),
  429: err("Rate limit exceeded; see Retry-After."),
  504: err("Not done within the request's time limit; the message says what to do instead."),
} as const;

export const common = { 401: errors[401], 403: errors[403], 429: errors[429] };

export function ok<T extends z.ZodType>(schema: T, description = "OK") {
  return { 200: { description, content: { "application/json": { schema } } } };
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } };
}

/** Marks a route as an extension of the interface specification in the OpenAPI document. */
export const extension = { "x-notula-extension": true } as Record<string, unknown>;

type Definition = Omit<RouteConfig, "method" | "path" | "tags" | "security" | "middleware">;

/** What every route of a resource needs of its caller: a scope (none: any valid key), the Enterprise plan. */
export interface Needs {
  scope?: ScopeName;
  enterprise?: boolean;
}

/**
 * Route definitions for one resource: each takes its method and path from the
 * endpoint table, the resource's tags, and what it needs of its caller, declared once:
 * the middleware that checks it, and the OpenAPI document that says it (the scope as
 * the bearer requirement's role, the plan as x-notula-plan).
 */
export function routesFor(tags: string[], needs: Needs = {}) {
  const middleware: MiddlewareHandler<AppEnv>[] = [
    ...(needs.scope ? [requireScope(needs.scope)] : []),
    ...(needs.enterprise ? [requireEnterprise] : []),
  ];
  const security = [{ bearer: needs.scope ? [needs.scope] : [] }];
  const plan = needs.enterprise ? { "x-notula-plan": "enterprise" } : {};
  // The declared return type keeps each route's own request and response types,
  // which the handlers and the typed API client read; inference would widen them.
  return <N extends EndpointName, D extends Definition>(name: N, definition: D): (typeof endpoints)[N] & Common & D =>
    createRoute({
      ...endpoints[name],
      operationId: name,
      tags,
      security,
      middleware,
      ...plan,
      ...definition,
    }) as unknown as (typeof endpoints)[N] & Common & D;
}

type Common = { tags: string[]; security: { bearer: string[] }[]; middleware: MiddlewareHandler<AppEnv>[] };
