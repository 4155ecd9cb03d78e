import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import type { z } from "zod";
import type { Principal } from "../core/principal.js";
import { BadRequestError } from "../core/errors.js";
import { describeZodError } from "../shared/describe-zod-error.js";

export { describeZodError };

export interface AppEnv {
  Variables: { principal: Principal };
}

/** A router whose failed validations become 400 bad_request with a message naming the field. */
export function newRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new BadRequestError(describeZodError(result.error as z.ZodError));
    },
  });
}

/**
 * A 200 JSON response whose body arrives already rendered as JSON text (the notes
 * list, rendered by the database). The one place a body is declared as the route's
 * type without being built from it: test/server/notes-shape.test.ts holds the
 * rendering to the schema, field for field.
 */
export function renderedJson<T>(c: Context, json: string): TypedResponse<T, 200, "json"> {
  return c.body(json, 200, { "content-type": "application/json" }) as unknown as TypedResponse<T, 200, "json">;
}
