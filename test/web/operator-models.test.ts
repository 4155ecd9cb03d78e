// An operator who keeps the local models to themselves (--no-workspace-local-models):
// a workspace's admins can neither set one up (a download to the server's disk) nor
// choose one (the server's CPU), through the API or the web app; the pages say who
// decides; and a local engine a workspace chose before gives way to the server's own.
import { afterAll, describe, expect, it } from "vitest";
import { adminBrowser } from "../helpers/admin-browser.js";
import { launchChromium, signedInPage } from "../helpers/browser.js";
import { capture } from "../helpers/page-checks.js";
import { PASSWORD } from "../helpers/world.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

describe("the operator's local models", () => {
  it("are neither set up nor chosen by a workspace where the operator keeps them", async () => {
    const dataDir = tempDir();
    // First as every server starts: a workspace's admin chooses the local speech engine.
    const open = await startServer({ dataDir, args: ["--no-rate-limit"] });
    servers.push(open);
    let a = await adminBrowser(open, "admin");
    expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.localModelsForWorkspaces).toBe(true);
    const chosen = await a.api("PATCH", "/v1/ai-config", { transcription: { engine: "whisper" } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.aiConfig.transcription.engine).toBe("whisper");
    await open.stop();

    // Then the operator keeps the local models.
    const restarted = await startServer({ dataDir, args: ["--no-rate-limit", "--no-workspace-local-models"] });
    servers.push(restarted);
    // The admin key is printed at the first start only.
    const kept = { ...restarted, key: open.key };
    a = await adminBrowser(kept, "admin");
    const config = (await a.api("GET", "/v1/ai-config")).body.aiConfig;
    expect(config.localModelsForWorkspaces).toBe(false);
    // The choice made before gives way to the server's own engine.
    expect(config.transcription.engine).toBeNull();
    expect(config.effective.transcription).not.toMatch(/whisper/);

    for (const [body, field] of [
      [{ transcription: { engine: "whisper" } }, "transcription.engine"],
      [{ llm: { engine: "local" } }, "llm.engine"],
      [{ speakerSeparation: "local" }, "speakerSeparation"],
    ] as const) {
      const refused = await a.api("PATCH", "/v1/ai-config", body);
      expect(refused.status, field).toBe(403);
      expect(refused.body.error.message).toContain(`${field}: This server's local models are set up and chosen`);
      expect(refused.body.error.message).toContain("--no-workspace-local-models");
    }
    // Nor from the web app: the setups are refused, and nothing is downloaded.
    for (const [at, fields] of [
      ["/settings/ai/local/setup", { model: "qwen2.5-1.5b" }],
      ["/settings/speech/setup", { model: "base.en" }],
      ["/settings/speech/speakers/setup", {}],
    ] as const) {
      const refused = await a.post(at, fields);
      expect(refused.status, at).toBe(403);
    }
    expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.localModel.file).toBeNull();
    // The pages say who decides, where the buttons would be.
    const ai = (await a.page("/settings/ai")).html;
    expect(ai).toContain('id="local-llm-operator"');
    expect(ai).toMatch(/<div class="actions" hidden/);
    const speech = (await a.page("/settings/speech")).html;
    expect(speech).toContain('id="speech-operator"');
    expect(speech).toContain('id="speakers-operator"');
    expect(speech).toMatch(/action="\/settings\/speech\/setup" class="panel" hidden/);
    // As a browser shows them: accessible, at desktop and phone width.
    const browser = await launchChromium();
    try {
      const me = (await a.api("GET", "/v1/me")).body.user.email as string;
      const page = await signedInPage(browser, kept.url, me, PASSWORD);
      await page.goto(`${kept.url}/settings/ai`);
      await page.locator("#local-llm-operator").waitFor();
      await capture(page, "settings-ai-operator");
      await page.goto(`${kept.url}/settings/speech`);
      await page.locator("#speakers-operator").waitFor();
      await capture(page, "settings-speech-operator");
    } finally {
      await browser.close();
    }
    // A member never could.
    const m = await adminBrowser(kept, "member");
    expect((await m.post("/settings/ai/local/setup", { model: "qwen2.5-1.5b" })).status).toBe(403);
  }, 120_000);
});
