// The notepad beside a live transcript saves a person's notes as they type: each save
// names the version it was typed on, so of two tabs saving on one version exactly one is
// written and the other is given the notes as they are now; the page merges its lines
// into them (mergeLines) and nothing either wrote is lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeLines } from "../../src/shared/merge-lines.js";
import { textVersion } from "../../src/shared/text-version.js";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";
import { PASSWORD, webSession } from "../helpers/world.js";

let server: TestServer;
let api: Client;
let cookie: string;
let csrf: string;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  cookie = await webSession(server.url, "admin@notula.local");
  const page = await (await fetch(`${server.url}/notes/new`, { headers: { cookie } })).text();
  csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
});
afterAll(() => server?.stop());

const save = async (id: string, body: unknown) => {
  const r = await fetch(`${server.url}/notes/${id}/own-notes`, {
    method: "POST",
    headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: r.status, body: (await r.json()) as any };
};
const live = async (id: string): Promise<{ notes: string; notesVersion: string }> =>
  (await fetch(`${server.url}/notes/${id}/live`, { headers: { cookie, accept: "application/json" } })).json() as never;

describe("the notepad's saves", () => {
  it("write the notes typed on their version, and give a save on an old one the notes as they are", async () => {
    const { note } = (await api("POST", "/v1/recordings", { format: "ogg" })).body;
    const first = await live(note.id);
    expect(first.notes).toBe("");
    expect(first.notesVersion).toBe(textVersion(""));
    const a = await save(note.id, { text: "- pricing?", base: first.notesVersion });
    expect(a).toEqual({ status: 200, body: { version: textVersion("- pricing?") } });
    expect((await api("GET", `/v1/notes/${note.id}`)).body.note.userWrittenNote).toBe("- pricing?");
    // A second tab, still on the first version.
    const b = await save(note.id, { text: "- from the other tab", base: first.notesVersion });
    expect(b.status).toBe(409);
    expect(b.body).toEqual({ current: "- pricing?", version: textVersion("- pricing?") });
    expect((await api("GET", `/v1/notes/${note.id}`)).body.note.userWrittenNote).toBe("- pricing?");
    expect((await live(note.id)).notesVersion).toBe(textVersion("- pricing?"));
  });

  it("of two saves at once on one version, exactly one is written", async () => {
    const { note } = (await api("POST", "/v1/recordings", { format: "ogg" })).body;
    const base = textVersion("");
    const results = await Promise.all(["- one", "- two", "- three"].map((text) => save(note.id, { text, base })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const written = (await api("GET", `/v1/notes/${note.id}`)).body.note.userWrittenNote;
    const winner = ["- one", "- two", "- three"][results.findIndex((r) => r.status === 200)];
    expect(written).toBe(winner);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.current).toBe(winner);
  });

  it("refuse what they cannot take, by name, and a note the person cannot see", async () => {
    const { note } = (await api("POST", "/v1/recordings", { format: "ogg" })).body;
    const base = textVersion("");
    const long = await save(note.id, { text: "x".repeat(500_001), base });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/at most 500,000 characters/);
    expect((await save(note.id, { text: "- a", base: "nope" })).body.error.message).toMatch(/base/);
    const unknown = await save(note.id, { text: "- a", base, title: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/title/);
    expect((await save("nt_nosuch", { text: "- a", base })).status).toBe(404);
    // The limit itself is taken.
    expect((await save(note.id, { text: "x".repeat(500_000), base })).status).toBe(200);
  });
});

describe("merging a tab's lines into notes that moved on", () => {
  it("keeps their lines as they are and adds the lines written here, nothing lost", () => {
    const base = "- agenda";
    expect(mergeLines(base, "- agenda\n- mine", "- agenda\n- theirs")).toBe("- agenda\n- theirs\n- mine");
    expect(mergeLines(base, base, "- agenda\n- theirs")).toBe("- agenda\n- theirs");
    expect(mergeLines(base, "- agenda\n- mine", base)).toBe("- agenda\n- mine");
    // A line deleted here that they still have stays; one both added is there once.
    expect(mergeLines("- a\n- b", "- a\n- c", "- a\n- b\n- c")).toBe("- a\n- b\n- c");
    expect(mergeLines("- a\n- b", "- a", "- a\n- b\n- d")).toBe("- a\n- b\n- d");
  });
});
