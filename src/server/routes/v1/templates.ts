import type { Services } from "../../../services/index.js";
import { IdParam, SuccessMessage } from "../../../shared/schemas/common.js";
import {
  AiConfigEnvelope,
  AiConfigUpdateBody,
  TemplateCreateBody,
  TemplateEnvelope,
  TemplateList,
  TemplateUpdateBody,
} from "../../../shared/schemas/templates.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Templates"], { scope: "templates" });
const body = { 400: errors[400], 413: errors[413], 415: errors[415] };

const list = route("listTemplates", {
  ...extension,
  summary: "List meeting templates (extension)",
  description:
    "The built-in templates (read-only) first, then the workspace's own, oldest first. isDefault marks the workspace default.",
  responses: { ...ok(TemplateList), ...common },
});

const get = route("getTemplate", {
  ...extension,
  summary: "Read a meeting template (extension)",
  request: { params: IdParam },
  responses: { ...ok(TemplateEnvelope), 404: errors[404], ...common },
});

const create = route("createTemplate", {
  ...extension,
  summary: "Create a meeting template (extension)",
  description: `Sections are filled in order. 1 to 50 sections and at most 20,000 characters in all. copyFrom copies another template (a built-in one too) and the body's fields replace the copy's.`,
  request: { body: jsonBody(TemplateCreateBody) },
  responses: { ...ok(TemplateEnvelope), ...body, 409: errors[409], ...common },
});

const update = route("updateTemplate", {
  ...extension,
  summary: "Update a meeting template (extension)",
  description: "Built-in templates cannot be changed (409), though isDefault may make one the workspace default.",
  request: { params: IdParam, body: jsonBody(TemplateUpdateBody) },
  responses: { ...ok(TemplateEnvelope), ...body, 404: errors[404], 409: errors[409], ...common },
});

const remove = route("deleteTemplate", {
  ...extension,
  summary: "Delete a meeting template (extension)",
  description:
    "Folders and the workspace that used it as their default go back to the workspace default (the general built-in template). Notes keep their enhanced notes.",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], 409: errors[409], ...common },
});

const getConfig = route("getAiConfig", {
  ...extension,
  summary: "Read the workspace's AI configuration (extension; scope templates)",
  description:
    "Unset (null) fields fall back to the server's flags and environment; effective says what applies. API keys are never returned, only whether one is set.",
  responses: { ...ok(AiConfigEnvelope), ...common },
});

const updateConfig = route("updateAiConfig", {
  ...extension,
  summary: "Change the workspace's AI configuration (extension; scope templates, admins only)",
  description:
    "Fields left out stay as they are; null gives a field back to the server's default. API keys are stored encrypted. URLs on loopback or private networks are refused unless the server allows them (--allow-private-ai-urls).",
  request: { body: jsonBody(AiConfigUpdateBody) },
  responses: { ...ok(AiConfigEnvelope), ...body, ...common },
});

export function templateRoutes(services: Services) {
  const app = newRouter();
  app.openapi(list, async (c) => c.json({ templates: await services.templates.list(c.get("principal")) }, 200));
  app.openapi(create, async (c) =>
    c.json({ template: await services.templates.create(c.get("principal"), c.req.valid("json")) }, 200),
  );
  app.openapi(get, async (c) =>
    c.json({ template: await services.templates.get(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(update, async (c) =>
    c.json(
      { template: await services.templates.update(c.get("principal"), c.req.valid("param").id, c.req.valid("json")) },
      200,
    ),
  );
  app.openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    await services.templates.delete(c.get("principal"), id);
    return c.json({ success: true, message: `Template ${id} deleted.` }, 200);
  });
  app.openapi(getConfig, async (c) => c.json({ aiConfig: await services.aiConfig.get(c.get("principal")) }, 200));
  app.openapi(updateConfig, async (c) =>
    c.json(
      { aiConfig: await services.aiConfig.update(c.get("principal"), c.req.valid("json"), services.templates) },
      200,
    ),
  );
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const templateRouteDefs = {
  listTemplates: list,
  getTemplate: get,
  createTemplate: create,
  updateTemplate: update,
  deleteTemplate: remove,
  getAiConfig: getConfig,
  updateAiConfig: updateConfig,
};
