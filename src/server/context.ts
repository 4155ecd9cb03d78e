import { OpenAPIHono } from "@hono/zod-openapi";
import type { z } from "zod";
import type { Principal } from "../core/principal.js";
import { BadRequestError } from "../core/errors.js";

export interface AppEnv {
  Variables: { principal: Principal };
}

/** "limit: must be between 1 and 100; sortBy: invalid option …" */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const where = i.path.length ? i.path.join(".") : "body";
      if (i.code === "invalid_value" && "values" in i)
        return `${where}: must be one of ${(i.values as unknown[]).map(String).join(", ")}`;
      if (i.code === "invalid_type")
        return /received undefined/.test(i.message) ? `${where}: is required` : `${where}: must be ${i.expected === "object" ? "an object" : `a ${i.expected}`}`;
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
