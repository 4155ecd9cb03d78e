import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import type { z } from "zod";
import type { Principal } from "../core/principal.js";
import { BadRequestError } from "../core/errors.js";

export interface AppEnv {
  Variables: { principal: Principal };
}

/** "limit: must be between 1 and 100; sortBy: invalid option …; tagz: unknown field …" */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .flatMap((i) => {
      const where = i.path.length ? i.path.join(".") : "body";
      // A field the operation does not know is named, never dropped: a misspelt folderIds must not file a note nowhere.
      if (i.code === "unrecognized_keys")
        return i.keys.map((k) => `${[...i.path, k].join(".")}: unknown field; this operation does not take it`);
      if (i.code === "invalid_value" && "values" in i)
        return `${where}: must be one of ${(i.values as unknown[]).map(String).join(", ")}`;
      if (i.code === "invalid_type")
        return /received undefined/.test(i.message)
          ? `${where}: is required`
          : `${where}: must be ${i.expected === "object" ? "an object" : `a ${i.expected}`}`;
      return `${where}: ${i.message}`;
    })
    .join("; ");
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
