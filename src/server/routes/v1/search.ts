import type { Services } from "../../../services/index.js";
import { SearchQueryParams, SearchResponse } from "../../../shared/schemas/search.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Search"], { scope: "notes" });

const search = route("search", {
  ...extension,
  summary: "Search what was written and said (extension)",
  description:
    "Finds notes by their words (title, notes, summary, transcript) and, in hybrid and semantic mode, by meaning; each result names the note and its best matches with where they were said (transcript segment, time, speaker). Notes holding every term rank above those holding some. The list filter `search` of GET /v1/notes keeps its title meaning.",
  request: { query: SearchQueryParams },
  responses: { ...ok(SearchResponse), 400: errors[400], ...common },
});

export function searchRoutes(services: Services) {
  const app = newRouter();
  app.openapi(search, async (c) => c.json(await services.search.search(c.get("principal"), c.req.valid("query")), 200));
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const searchRouteDefs = { search };
