// The CLI's templates, enhance and speakers commands as a user runs them, against a real server.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { run, startServer, tempDir, type TestServer, cliEnv } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let env: Record<string, string>;
const work = tempDir("notula-cli-templates-");

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  env = cliEnv(server);
});
afterAll(() => server?.stop());

const cli = (args: string[], input?: string) => run(args, { input, env });
const json = async (args: string[], input?: string) => {
  const r = await cli([...args, "--json"], input);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

const DESIGN_REVIEW = `---
name: Design review
description: "For design crits"
language: en
---

We build a mobile banking app.

## Designs shown
Which screens were shown.

## Feedback
What people liked and disliked.
`;

describe("notula templates", () => {
  it("lists, creates from Markdown, prints back the same Markdown, updates, deletes", async () => {
    const listed = await cli(["templates", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows[0]).toEqual([
      "tpl_builtin_general",
      "General meeting",
      "Key points, Decisions, Action items",
      "",
      "default, built-in",
    ]);
    expect((await json(["templates", "list"])).items).toHaveLength(7);

    const file = path.join(work, "design.md");
    fs.writeFileSync(file, DESIGN_REVIEW);
    const created = await cli(["templates", "create", file]);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^tpl_/);
    expect(created.stderr).toContain('Created "Design review" with 2 sections.');
    const got = await json(["templates", "get", id]);
    expect(got).toMatchObject({
      name: "Design review",
      description: "For design crits",
      language: "en",
      context: "We build a mobile banking app.",
      sections: [
        { title: "Designs shown", instructions: "Which screens were shown." },
        { title: "Feedback", instructions: "What people liked and disliked." },
      ],
    });
    // `get` prints what `create` reads.
    expect((await cli(["templates", "get", id])).stdout).toBe(
      DESIGN_REVIEW.replace('"For design crits"', "For design crits"),
    );

    // Update from standard input with JSON, and make it the default.
    const updated = await cli(
      ["templates", "update", id, "-", "--default"],
      JSON.stringify({ sections: [{ title: "Only", instructions: "" }] }),
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toContain("(the workspace default)");
    expect((await api("GET", `/v1/templates/${id}`)).body.template).toMatchObject({
      isDefault: true,
      sections: [{ title: "Only" }],
    });

    const copied = await json(["templates", "create", "--copy-from", "tpl_builtin_stand-up", "--name", "Our stand-up"]);
    expect(copied).toMatchObject({ name: "Our stand-up", builtIn: false });

    const refused = await cli(["templates", "delete", id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Delete the template "Design review"\?.*--yes/);
    expect((await cli(["templates", "delete", id, "--yes"])).code).toBe(0);
    expect((await cli(["templates", "get", id])).code).not.toBe(0);
  });

  it("refuses a bad file with a message naming the problem", async () => {
    const bad = path.join(work, "bad.md");
    fs.writeFileSync(bad, "---\ncolour: red\n---\n## A\n");
    const r = await cli(["templates", "create", bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown front matter key "colour"/);
    fs.writeFileSync(bad, "---\nname: No sections\n---\nJust context.\n");
    const none = await cli(["templates", "create", bad]);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/sections/);
    const builtIn = await cli(["templates", "update", "tpl_builtin_general", "--name", "Mine"]);
    expect(builtIn.code).not.toBe(0);
    expect(builtIn.stderr).toMatch(/built-in template and cannot be changed/);
  });
});

describe("notula notes enhance and speakers", () => {
  it("enhances with a template and waits; lists and renames speakers", async () => {
    const id = (
      await api("POST", "/v1/notes", {
        title: "Stand-up",
        transcripts: [
          {
            speaker: "A",
            text: "Yesterday I finished the login page.",
            startTimestamp: "00:00",
            endTimestamp: "00:10",
          },
          {
            speaker: "B",
            text: "Today I will deploy the payment service.",
            startTimestamp: "00:10",
            endTimestamp: "00:14",
          },
          {
            speaker: "A",
            text: "I am blocked by the broken build server.",
            startTimestamp: "00:14",
            endTimestamp: "00:20",
          },
        ],
      })
    ).body.note.id;
    for (let i = 0; i < 100 && (await api("GET", `/v1/notes/${id}`)).body.note.status !== "completed"; i++)
      await new Promise((r) => setTimeout(r, 100));

    const enhanced = await cli(["notes", "enhance", id, "--template", "tpl_builtin_stand-up", "--wait"]);
    expect(enhanced.code, enhanced.stderr).toBe(0);
    expect(enhanced.stderr).toContain(`${id}: completed`);
    expect(enhanced.stdout).toContain("## Yesterday");
    expect(enhanced.stdout).toMatch(/template\s+Stand-up/);

    const speakers = await cli(["notes", "speakers", id]);
    expect(speakers.stdout.trim().split("\n")).toEqual(["A\tA\t\t0:16\t2", "B\tB\t\t0:04\t1"]);
    const renamed = await json(["notes", "speakers", id, "rename", "A", "Ana", "Silva"]);
    expect(renamed.items[0]).toMatchObject({ label: "A", name: "Ana Silva" });
    expect((await cli(["notes", "get", id])).stdout).toContain("Ana Silva: Yesterday I finished the login page.");
    const cleared = await json(["notes", "speakers", id, "rename", "A", "--clear"]);
    expect(cleared.items[0].name).toBe("A");
    const wrong = await cli(["notes", "speakers", id, "delete"]);
    expect(wrong.code).toBe(2);
  }, 60_000);
});
