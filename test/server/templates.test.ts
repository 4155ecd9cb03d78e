// Meeting templates and the workspace AI configuration over REST: the templates
// scope, built-in templates, limits at their edges, isolation, and keys at rest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin, startServer, storeQuery, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;

const BUILT_INS = [
  "General meeting",
  "One-to-one",
  "Stand-up",
  "Sales call",
  "Interview",
  "Follow-up email",
  "Chat recap",
];
const sections = (n: number, size = 10) =>
  Array.from({ length: n }, (_, i) => ({ title: `Section ${i + 1}`, instructions: "x".repeat(size) }));

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
});
afterAll(() => server?.stop());

describe("/v1/templates", () => {
  it("needs the templates scope: 403 for a key without it, 200 with it", async () => {
    const notesOnly = client(
      server.url,
      (await admin(server.dataDir, ["keys", "create", "--name", "notes", "--scopes", "notes"])).key,
    );
    for (const [method, path] of [
      ["GET", "/v1/templates"],
      ["POST", "/v1/templates"],
      ["GET", "/v1/templates/tpl_builtin_general"],
      ["PATCH", "/v1/templates/tpl_builtin_general"],
      ["DELETE", "/v1/templates/tpl_x"],
      ["GET", "/v1/ai-config"],
      ["PATCH", "/v1/ai-config"],
    ]) {
      const r = await notesOnly(method, path, method === "GET" || method === "DELETE" ? undefined : {});
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(errorCode(r)).toBe("forbidden");
    }
    const scoped = client(
      server.url,
      (await admin(server.dataDir, ["keys", "create", "--name", "tpl", "--scopes", "templates"])).key,
    );
    expect((await scoped("GET", "/v1/templates")).status).toBe(200);
  });

  it("lists the built-in templates first, read-only, with the general one as the default", async () => {
    const r = await api("GET", "/v1/templates");
    expect(r.status).toBe(200);
    const builtIns = r.body.templates.filter((t: any) => t.builtIn);
    expect(builtIns.map((t: any) => t.name)).toEqual(BUILT_INS);
    expect(builtIns.find((t: any) => t.isDefault).id).toBe("tpl_builtin_general");
    const sales = builtIns.find((t: any) => t.name === "Sales call");
    expect(sales.sections.map((s: any) => s.title)).toEqual(
      expect.arrayContaining(["Budget", "Decision makers", "Timeline", "Next steps"]),
    );

    const change = await api("PATCH", `/v1/templates/${sales.id}`, { name: "Mine" });
    expect(change.status).toBe(409);
    expect(change.body.error.message).toMatch(/built-in template and cannot be changed; copy it/);
    expect((await api("DELETE", `/v1/templates/${sales.id}`)).status).toBe(409);
  });

  it("creates, reads, updates and deletes a template, sections in order", async () => {
    const created = await api("POST", "/v1/templates", {
      name: "Design review",
      description: "For design crits",
      sections: [
        { title: "Designs shown", instructions: "Which screens were shown." },
        { title: "Feedback", instructions: "What people liked and disliked." },
        { title: "Changes to make", instructions: "Each as a task with an owner." },
      ],
      context: "We build a mobile banking app.",
      language: "DE",
    });
    expect(created.status).toBe(200);
    const t = created.body.template;
    expect(t).toMatchObject({
      name: "Design review",
      builtIn: false,
      isDefault: false,
      language: "de",
      context: "We build a mobile banking app.",
    });
    expect(t.id).toMatch(/^tpl_/);
    expect(t.sections.map((s: any) => s.title)).toEqual(["Designs shown", "Feedback", "Changes to make"]);

    expect((await api("GET", `/v1/templates/${t.id}`)).body.template).toEqual(t);
    const updated = await api("PATCH", `/v1/templates/${t.id}`, { sections: [{ title: "Only one" }], language: null });
    expect(updated.status).toBe(200);
    expect(updated.body.template).toMatchObject({
      name: "Design review",
      language: null,
      sections: [{ title: "Only one", instructions: "" }],
    });
    expect((await api("GET", "/v1/templates")).body.templates.map((x: any) => x.id)).toContain(t.id);

    expect((await api("DELETE", `/v1/templates/${t.id}`)).body).toMatchObject({ success: true });
    expect((await api("GET", `/v1/templates/${t.id}`)).status).toBe(404);
    expect((await api("DELETE", `/v1/templates/${t.id}`)).status).toBe(404);
  });

  it("copies a built-in template; the body's fields replace the copy's", async () => {
    const r = await api("POST", "/v1/templates", { copyFrom: "tpl_builtin_stand-up", language: "fr" });
    expect(r.status).toBe(200);
    expect(r.body.template).toMatchObject({ name: "Stand-up (copy)", builtIn: false, language: "fr" });
    expect(r.body.template.sections.map((s: any) => s.title)).toEqual(["Yesterday", "Today", "Blockers"]);
    const bad = await api("POST", "/v1/templates", { copyFrom: "tpl_nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^copyFrom: /);
  });

  it("enforces the limits at their edges: 1–50 sections, 20,000 characters", async () => {
    const none = await api("POST", "/v1/templates", { name: "Empty", sections: [] });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/sections/);
    expect((await api("POST", "/v1/templates", { name: "Missing" })).status).toBe(400);

    expect((await api("POST", "/v1/templates", { name: "Fifty", sections: sections(50) })).status).toBe(200);
    const fiftyOne = await api("POST", "/v1/templates", { name: "Fifty-one", sections: sections(51) });
    expect(fiftyOne.status).toBe(400);
    expect(fiftyOne.body.error.message).toMatch(/sections.*at most 50/);

    // name (4) + one title (9) + instructions: exactly 20,000 characters, then one more.
    const exact = { name: "Edge", sections: [{ title: "Section 1", instructions: "y".repeat(20_000 - 4 - 9) }] };
    expect((await api("POST", "/v1/templates", exact)).status).toBe(200);
    const over = await api("POST", "/v1/templates", { ...exact, description: "z" });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/20001 characters; at most 20000/);
    // A change that would pass the limit is refused and changes nothing.
    const id = (await api("POST", "/v1/templates", exact)).body.template.id;
    expect((await api("PATCH", `/v1/templates/${id}`, { context: "more" })).status).toBe(400);
    expect((await api("GET", `/v1/templates/${id}`)).body.template.context).toBe("");
  });

  it("names the unknown field or section field in a 400", async () => {
    const unknown = await api("POST", "/v1/templates", { name: "X", sections: [{ title: "A" }], colour: "red" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/colour/);
    const section = await api("POST", "/v1/templates", { name: "X", sections: [{ title: "A", prompt: "p" }] });
    expect(section.status).toBe(400);
    expect(section.body.error.message).toMatch(/sections\.0.*prompt|prompt.*sections/);
    const twice = await api("POST", "/v1/templates", { name: "X", sections: [{ title: "Notes" }, { title: "notes" }] });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(/appears twice/);
    const lang = await api("POST", "/v1/templates", {
      name: "X",
      sections: [{ title: "A" }],
      language: "not a language",
    });
    expect(lang.status).toBe(400);
    expect(lang.body.error.message).toMatch(/language/);
  });

  it("makes a template the workspace default, and deleting it gives the general one back", async () => {
    const t = (await api("POST", "/v1/templates", { name: "Weekly", sections: [{ title: "Wins" }], isDefault: true }))
      .body.template;
    expect(t.isDefault).toBe(true);
    expect((await api("GET", "/v1/ai-config")).body.aiConfig.defaultTemplateId).toBe(t.id);
    const all = (await api("GET", "/v1/templates")).body.templates;
    expect(all.filter((x: any) => x.isDefault).map((x: any) => x.id)).toEqual([t.id]);
    // A built-in template can be the default too (isDefault is not a change of its content).
    expect(
      (await api("PATCH", "/v1/templates/tpl_builtin_interview", { isDefault: true })).body.template.isDefault,
    ).toBe(true);
    expect((await api("PATCH", `/v1/templates/${t.id}`, { isDefault: true })).status).toBe(200);
    await api("DELETE", `/v1/templates/${t.id}`);
    expect((await api("GET", "/v1/ai-config")).body.aiConfig.defaultTemplateId).toBeNull();
    expect((await api("GET", "/v1/templates/tpl_builtin_general")).body.template.isDefault).toBe(true);
  });

  it("another workspace's template is 404, and unknown there when named in a field", async () => {
    const other = await admin(server.dataDir, ["workspaces", "create", "--name", "Other"]);
    const otherApi = client(server.url, other.key);
    const theirs = (await otherApi("POST", "/v1/templates", { name: "Theirs", sections: [{ title: "A" }] })).body
      .template;
    expect((await api("GET", `/v1/templates/${theirs.id}`)).status).toBe(404);
    expect((await api("PATCH", `/v1/templates/${theirs.id}`, { name: "Mine now" })).status).toBe(404);
    expect((await api("DELETE", `/v1/templates/${theirs.id}`)).status).toBe(404);
    expect((await api("GET", "/v1/templates")).body.templates.map((t: any) => t.id)).not.toContain(theirs.id);
    const me = (await api("GET", "/v1/me")).body;
    const folder = await api("POST", "/v1/folders", { name: "F", ownerUserId: me.user.id, templateId: theirs.id });
    expect(folder.status).toBe(400);
    expect(folder.body.error.message).toMatch(/^templateId: no template/);
    const config = await api("PATCH", "/v1/ai-config", { defaultTemplateId: theirs.id });
    expect(config.status).toBe(400);
    expect(config.body.error.message).toMatch(/^defaultTemplateId: /);
    expect((await otherApi("GET", `/v1/templates/${theirs.id}`)).status).toBe(200);
  });

  it("a folder carries its default template in the list", async () => {
    const me = (await api("GET", "/v1/me")).body;
    const f = (
      await api("POST", "/v1/folders", {
        name: "Stand-ups",
        ownerUserId: me.user.id,
        templateId: "tpl_builtin_stand-up",
      })
    ).body.folder;
    const listed = () => api("GET", "/v1/folders").then((r) => r.body.folders.find((x: any) => x.id === f.id));
    expect((await listed()).templateId).toBe("tpl_builtin_stand-up");
    expect((await api("PATCH", `/v1/folders/${f.id}`, { templateId: null })).status).toBe(200);
    expect((await listed()).templateId).toBeNull();
  });
});

describe("/v1/ai-config", () => {
  it("reads the server's defaults when the workspace sets nothing", async () => {
    const r = await api("GET", "/v1/ai-config");
    expect(r.status).toBe(200);
    expect(r.body.aiConfig).toMatchObject({
      transcription: { engine: null, url: null, apiKeySet: false, language: null, vocabulary: [] },
      llm: { url: null, model: null, apiKeySet: false },
      summaryLanguage: null,
      translationLanguage: null,
      effective: { summary: "extractive", transcriptionLanguage: "auto" },
    });
  });

  it("stores API keys encrypted, never returns them, and refuses private URLs unless allowed", async () => {
    const privateUrl = await api("PATCH", "/v1/ai-config", { llm: { url: "http://127.0.0.1:11434/v1" } });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.body.error.message).toMatch(
      /^llm\.url: .*only the server's operator can allow .*--allow-private-ai-urls/,
    );

    const r = await api("PATCH", "/v1/ai-config", {
      llm: { url: "https://llm.example.com/v1", model: "big-model", apiKey: "sk-secret-llm-key-123" },
      transcription: { language: "de", vocabulary: ["Notula", "Kubernetes"], apiKey: "sk-secret-stt-key-456" },
      summaryLanguage: "en",
    });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toMatch(/sk-secret/);
    expect(r.body.aiConfig).toMatchObject({
      llm: { url: "https://llm.example.com/v1", model: "big-model", apiKeySet: true },
      transcription: { language: "de", vocabulary: ["Notula", "Kubernetes"], apiKeySet: true },
      summaryLanguage: "en",
      effective: { summary: "openai:big-model", transcriptionLanguage: "de" },
    });
    const rows = await storeQuery(server.dataDir, "SELECT settings, llm_api_key_enc, stt_api_key_enc FROM ai_settings");
    expect(JSON.stringify(rows)).not.toMatch(/sk-secret/);
    expect(rows[0].llm_api_key_enc).toBeTruthy();

    // Fields left out stay; null gives one back to the server; a null key removes it.
    const back = await api("PATCH", "/v1/ai-config", { llm: { url: null, apiKey: null } });
    expect(back.body.aiConfig).toMatchObject({
      llm: { url: null, model: "big-model", apiKeySet: false },
      transcription: { language: "de", apiKeySet: true },
    });
    expect(back.body.aiConfig.effective.summary).toBe("extractive");
    await api("PATCH", "/v1/ai-config", {
      transcription: { language: null, vocabulary: [], apiKey: null },
      llm: { model: null },
      summaryLanguage: null,
    });
  });

  it("only an admin may change it; a member may read it", async () => {
    const ws = (await api("GET", "/v1/me")).body.workspace.id;
    const user = await admin(
      server.dataDir,
      ["users", "create", "--workspace", ws, "--email", "member@example.com", "--name", "Mem", "--password-stdin"],
      "a-long-password-1",
    );
    const memberApi = client(
      server.url,
      (
        await admin(server.dataDir, [
          "keys",
          "create",
          "--name",
          "m",
          "--scopes",
          "templates",
          "--user",
          user.user?.id ?? user.id,
        ])
      ).key,
    );
    expect((await memberApi("GET", "/v1/ai-config")).status).toBe(200);
    const r = await memberApi("PATCH", "/v1/ai-config", { summaryLanguage: "fr" });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/Only an admin/);
    // Templates themselves are for every member with the scope.
    expect((await memberApi("POST", "/v1/templates", { name: "Member's", sections: [{ title: "A" }] })).status).toBe(
      200,
    );
  });

  it("400 for bad values, naming the field", async () => {
    for (const [body, field] of [
      [{ transcription: { language: "xx-!!" } }, "transcription.language"],
      [{ llm: { url: "ftp://x" } }, "llm.url"],
      [{ transcription: { vocabulary: Array(201).fill("t") } }, "transcription.vocabulary"],
      [{ transcription: { engine: "magic" } }, "transcription.engine"],
      [{ temperature: 1 }, "temperature"],
    ] as const) {
      const r = await api("PATCH", "/v1/ai-config", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(field);
    }
  });
});
