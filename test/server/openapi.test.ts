import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../helpers/endpoints.js";
import { client } from "../helpers/http.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

describe("OpenAPI document and reference page", () => {
  it("serves OpenAPI 3.1 covering every endpoint, without a key", async () => {
    const r = await client(server.url)("GET", "/v1/openapi.json");
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0].url).toBe(server.url);
    const placeholders = {
      note: "{id}",
      folder: "{id}",
      invite: "{id}",
      member: "{id}",
      group: "{id}",
      article: "{id}",
      user: "{id}",
    };
    for (const ep of ENDPOINTS) {
      const key = ep.path(placeholders);
      expect(doc.paths[key]?.[ep.method.toLowerCase()], `${ep.method} ${key}`).toBeDefined();
    }
    // Schemas are generated from the validating zod schemas.
    const list = doc.paths["/v1/notes"].get;
    const limit = list.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.in).toBe("query");
    const sortBy = list.parameters.find((p: { name: string }) => p.name === "sortBy");
    expect(sortBy.schema.enum).toEqual(["createdAt", "updatedAt", "title"]);
    expect(doc.components.schemas.Note.properties.visibility.enum).toEqual(["only-me", "workspace", "public"]);
    expect(doc.components.schemas.Error.properties.error.properties.code.type).toBe("string");
    // Extensions are marked as such.
    expect(doc.paths["/v1/notes"].post["x-notula-extension"]).toBe(true);
    expect(doc.paths["/v1/notes"].get["x-notula-extension"]).toBeUndefined();
    expect(doc.components.securitySchemes.bearer.scheme).toBe("bearer");
  });

  it("renders a readable reference at /docs with no external resources", async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("/v1/notes/{id}");
    expect(html).toContain("POST");
    expect(html).toContain("extension");
    expect(html).not.toMatch(/<script|https?:\/\/cdn/i);
  });
});
