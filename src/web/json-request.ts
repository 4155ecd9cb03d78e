// A step a page's script takes with JSON (an upload, a recording, a corrected line):
// the form token checked, the body read with the operation's schema, and a refusal
// worded for the page (by field, where the page names it otherwise).
import type { z } from "zod";
import { BadRequestError, ForbiddenError } from "../core/errors.js";
import { describeZodError } from "../http/context.js";
import { csrfOk, viewerOf, type WebContext } from "./context.js";

export async function jsonRequest<S extends z.ZodType>(
  c: WebContext,
  schema: S,
  wording: Partial<Record<string, string>> = {},
) {
  if (!(await csrfOk(c))) throw new ForbiddenError("The page had expired; reload it and try again.");
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new BadRequestError("The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0].path[0] ?? "");
    throw new BadRequestError(wording[field] ?? describeZodError(parsed.error));
  }
  return { viewer: viewerOf(c), body: parsed.data as z.output<S> };
}
