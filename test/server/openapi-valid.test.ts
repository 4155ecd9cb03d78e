// The OpenAPI document is one every tool accepts: an independent validator
// (swagger-parser, against the OpenAPI 3.1 schema) and a linter (Redocly's recommended
// rules) find no error in it. Generators and gateways read this document; a document
// they reject makes the API unusable to them, however right the server is. The
// reference page rendered from it reads on a phone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { startApp, type TestApp } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";

let server: TestApp;
let text: string;

beforeAll(async () => {
  server = await startApp();
  text = await (await server.fetch("/v1/openapi.json")).text();
}, 60_000);
afterAll(() => server?.stop());

describe("the OpenAPI document", () => {
  it("passes swagger-parser's validation", async () => {
    await expect(SwaggerParser.validate(JSON.parse(text))).resolves.toBeTruthy();
  });

  it("lints with no error under Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: "openapi.json", config });
    const errors = problems
      .filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ""}`);
    expect(errors).toEqual([]);
  });
});

describe("the /docs page", () => {
  it("fits a 390 px phone screen: nothing wider than the screen but what scrolls in its own box", async () => {
    const html = await (await server.fetch("/docs")).text();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.setContent(html);
      const width = await page.evaluate("document.documentElement.scrollWidth");
      expect(width).toBeLessThanOrEqual(390);
      expect(await page.getByRole("heading", { name: "POST /v1/notes/from-audio/generate-upload-url" }).count()).toBe(
        1,
      );
    } finally {
      await browser.close();
    }
  }, 60_000);
});
