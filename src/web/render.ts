// Renders a page component to a full HTML response.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Child } from "hono/jsx";

export async function render(c: Context, page: Child, status: ContentfulStatusCode = 200) {
  return c.html(`<!doctype html>${await (page as unknown as Promise<string> | string)}`, status);
}
