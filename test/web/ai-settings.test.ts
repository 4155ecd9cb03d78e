// Settings → AI, for admins: the language model that writes the workspace's notes and
// answers, set from the web app with its key sealed, tested with one short question
// (the stand-in records what it was sent), and removed again; a member may not; a note
// summarised without a model says how to get written ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminBrowser } from "../helpers/admin-browser.js";
import { waitForStatus } from "../helpers/flow.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { startChatServer, type VendorServer } from "../helpers/vendors.js";

let llm: VendorServer;
let server: TestServer;

beforeAll(async () => {
  llm = await startChatServer({ apiKey: "sk-right" });
  server = await startServer({ args: ["--no-rate-limit", "--allow-private-ai-urls"] });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await llm?.close();
});

describe("Settings → AI", () => {
  it("sets the language model, tests it, says when it fails, and removes it; members may not", async () => {
    const a = await adminBrowser(server, "admin");
    const first = (await a.page("/settings/ai")).html;
    expect(first).toContain("No language model writes them yet");
    // This server lets workspaces use a model server on a private network, and says so.
    expect(first).toMatch(/id="ai-who">This server lets workspaces use model servers on its own machine/);
    // The first-run screen tells an admin how notes get written; a member has nothing to set up.
    expect((await a.page("/notes")).html).toMatch(/id="first-run-ai"[\s\S]*href="\/settings\/ai"/);
    const m = await adminBrowser(server, "member");
    expect((await m.page("/notes")).html).not.toContain("first-run-ai");

    // A note written without a model says how to get a written one.
    const made = await a.api("POST", "/v1/notes", {
      title: "Planning",
      transcripts: [
        {
          speaker: "Ana",
          text: "We will open the Lisbon office in March.",
          startTimestamp: "00:00",
          endTimestamp: "00:05",
        },
        {
          speaker: "Ben",
          text: "The budget is two hundred thousand euros.",
          startTimestamp: "00:05",
          endTimestamp: "00:10",
        },
      ],
    });
    const id = made.body.note?.id ?? made.body.id;
    await waitForStatus(a.api, id, ["completed"], 60_000);
    expect((await a.page(`/notes/${id}`)).html).toMatch(/id="extract-hint"[\s\S]*href="\/settings\/ai"/);

    const saved = await a.post("/settings/ai", { url: llm.url, model: "test-model", apiKey: "sk-right" });
    expect(saved.status).toBe(303);
    const page = (await a.page("/settings/ai")).html;
    expect(page).toContain("written by <strong>test-model</strong>, on the model server below");
    expect(page).toContain("(one is set; leave empty to keep it)");
    expect(page).not.toContain("sk-right");

    const before = llm.calls.length;
    const tested = await a.post("/settings/ai/test", {});
    expect(tested.status).toBe(200);
    expect(await tested.text()).toContain("test-model answered: “I can read meeting transcripts.”");
    expect(llm.calls[before].headers.authorization).toBe("Bearer sk-right");

    // A key the server refuses: the test says so, beside the form.
    llm.set({ apiKey: "sk-rotated" });
    const refused = await a.post("/settings/ai/test", {});
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/did not answer: The language model server refused the request \(401\)/);

    expect((await m.page("/settings/ai")).status).toBe(403);
    expect((await m.post("/settings/ai", { url: "https://example.com/v1" })).status).toBe(403);
    expect((await m.post("/settings/ai/test", {})).status).toBe(403);
    expect((await m.page("/notes/new")).html).not.toContain('href="/settings/ai"');

    expect((await a.post("/settings/ai/remove", {})).status).toBe(303);
    expect((await a.api("GET", "/v1/ai-config")).body.aiConfig.llm).toMatchObject({ url: null, apiKeySet: false });
    expect((await a.page("/settings/ai")).html).toContain("No language model writes them yet");
  }, 120_000);
});
