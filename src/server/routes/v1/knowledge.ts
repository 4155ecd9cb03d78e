import { z } from "zod";
import type { Services } from "../../../services/index.js";
import { IdParam, PageQuery, Pagination, SuccessMessage } from "../../../shared/schemas/common.js";
import { KnowledgeArticle, KnowledgeArticleCreateBody } from "../../../shared/schemas/integrations.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Knowledge base"], { scope: "notes" });

const create = route("createArticle", {
  ...extension,
  summary: "Add a knowledge-base article (extension)",
  request: { body: jsonBody(KnowledgeArticleCreateBody) },
  responses: {
    ...ok(z.object({ article: KnowledgeArticle })),
    400: errors[400],
    413: errors[413],
    415: errors[415],
    ...common,
  },
});

const list = route("listArticles", {
  ...extension,
  summary: "List knowledge-base articles (extension)",
  request: { query: PageQuery },
  responses: {
    ...ok(z.object({ items: z.array(KnowledgeArticle), pagination: Pagination })),
    400: errors[400],
    ...common,
  },
});

const remove = route("deleteArticle", {
  ...extension,
  summary: "Delete a knowledge-base article (extension)",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], ...common },
});

export function knowledgeRoutes(services: Services) {
  const app = newRouter();
  app.openapi(create, async (c) =>
    c.json({ article: await services.knowledge.create(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(list, async (c) => {
    const { limit, offset } = c.req.valid("query");
    return c.json(await services.knowledge.list(c.get("principal"), limit, offset), 200);
  });
  app.openapi(remove, async (c) =>
    c.json(await services.knowledge.delete(c.get("principal"), c.req.valid("param").id), 200),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const knowledgeRouteDefs = { createArticle: create, listArticles: list, deleteArticle: remove };
