// The words shown with a search's results: every match text, snippet and citation comes
// from the note (or article) it is shown with, and only from one the caller may read.
// Checked on every surface (REST in each mode, the MCP tools, the web page, the CLI,
// asking) and as a property over many notes that share their words: which notes come
// back is the access policy's (isolation.test.ts); this file checks what they say.
import fc from "fast-check";
import type { Client as Mcp } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { connectMcp } from "../helpers/mcp.js";
import { addMember } from "../helpers/members.js";
import { admin, cliEnv, run, startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";
import { webSession } from "../helpers/world.js";
import { IN_FLIGHT_STATUSES } from "../../src/core/note-vocabulary.js";

let server: TestServer;
let api: Client;
let member: Client;
let memberKey: string;
let memberEmail: string;
let other: Client;
let otherKey: string;
let mcpOf: Map<string, Mcp>;
/** For each caller, each note and article they may read, by id, with its own texts: what may be shown with it. */
const readable = new Map<Client, Map<string, string[]>>();
const ownOf = (as: Client) => readable.get(as) ?? readable.set(as, new Map()).get(as)!;
const MODES = ["fulltext", "hybrid", "semantic"] as const;

const seg = (speaker: string, text: string, at: number) => ({
  speaker,
  text,
  startTimestamp: `00:${String(at).padStart(2, "0")}`,
  endTimestamp: `00:${String(at + 4).padStart(2, "0")}`,
});

/** Whitespace as one space: the indexes keep words, and lay lines and fields out as they like. */
const flat = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * A shown text holds only the note's own words when each piece of it (the marks taken
 * out, cut where it says "…") is found in one of the note's texts as they are stored.
 */
function shownPieces(text: string): string[] {
  return text
    .replace(/[«»]/g, "")
    .split("…")
    .map(flat)
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
}
function expectOwn(as: Client, id: string, text: string, where: string) {
  const own = ownOf(as).get(id);
  expect(own, `${where}: ${id} is not a note or article this caller may read`).toBeDefined();
  for (const piece of shownPieces(text))
    expect(
      own!.some((t) => t.includes(piece)),
      `${where}: "${piece}" shown with ${id} is not in its own text`,
    ).toBe(true);
}

/** A note's texts as stored, and as the search indexes join them (title and body; passages). */
async function learnNote(as: Client, id: string) {
  const n = (await as("GET", `/v1/notes/${id}`)).body.note;
  const lines = (n.transcripts as { text: string }[]).map((s) => s.text);
  const people = (n.participants as { name: string; email: string }[]).map((p) => `${p.name} ${p.email}`.trim());
  const body = [n.userWrittenNote, n.summary, n.enhancedNote, ...lines, people.join(", ")].filter(Boolean);
  ownOf(as).set(
    id,
    [
      n.title,
      ...body,
      `${n.title} ${body.join(" ")}`,
      [n.title, n.summary].filter(Boolean).join(". "),
      lines.join(" "),
    ].map(flat),
  );
}

/** Everything the caller may read (as the notes list and the knowledge base give it), afresh. */
async function learnAll(as: Client) {
  ownOf(as).clear();
  for (let offset: number | null = 0; offset !== null;) {
    const { body }: { body: { items: { id: string }[]; pagination: { nextOffset: number | null } } } = await as(
      "GET",
      `/v1/notes?limit=100&offset=${offset}`,
    );
    for (const n of body.items as { id: string }[]) await learnNote(as, n.id);
    offset = body.pagination.nextOffset;
  }
  const k = await as("GET", "/v1/knowledge");
  for (const a of k.body.items as { id: string; title: string; content: string }[])
    ownOf(as).set(a.id, [a.title, a.content, `${a.title} ${a.content}`].map(flat));
}

async function settled() {
  await until(
    "every note processed and indexed",
    async () => {
      const rows = await storeQuery(server.dataDir, "SELECT status FROM notes");
      if (rows.some((r) => IN_FLIGHT_STATUSES.has(r.status))) return false;
      const [{ n }] = await storeQuery(
        server.dataDir,
        "SELECT count(*) AS n FROM jobs WHERE kind = 'index-passages' AND status IN ('queued', 'running')",
      );
      return Number(n) === 0;
    },
    300_000,
    250,
  );
}

const searchOf = (as: Client) => async (q: string, mode: (typeof MODES)[number]) => {
  const r = await as("GET", `/v1/search?${new URLSearchParams({ q, mode, limit: "50" })}`);
  expect(r.status, r.text).toBe(200);
  return r.body.results as {
    note: { id: string; title: string };
    foundBy: string;
    matches: { text: string }[];
  }[];
};

async function mcpTexts(key: string, query: string): Promise<{ id: string; text: string; where: string }[]> {
  let mcp = mcpOf.get(key);
  if (!mcp) mcpOf.set(key, (mcp = (await connectMcp(server.url, key, "words-shown")).client));
  const notes = (await mcp.callTool({ name: "svc_search_notes", arguments: { query, limit: 50 } }))
    .structuredContent as { notes: { id: string; snippet: string }[] };
  const knowledge = (await mcp.callTool({ name: "svc_search_knowledge", arguments: { query, limit: 50 } }))
    .structuredContent as { results: { id: string; snippet: string }[] };
  return [
    ...notes.notes.map((n) => ({ id: n.id, text: n.snippet, where: "svc_search_notes" })),
    ...knowledge.results.map((r) => ({ id: r.id, text: r.snippet, where: "svc_search_knowledge" })),
  ];
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"], env: { NOTULA_EMBEDDINGS: "local" } });
  api = client(server.url, server.key);
  const added = await addMember(server, { name: "mia", role: "member" });
  memberKey = added.key;
  memberEmail = added.email;
  member = client(server.url, memberKey);
  const second = await admin(server.dataDir, ["workspaces", "create", "--name", "Tenant B"]);
  otherKey = second.key;
  other = client(server.url, otherKey);
  mcpOf = new Map();
  const make = async (as: Client, key: string, body: Record<string, unknown>) =>
    (ids[key] = (await as("POST", "/v1/notes", { summary: "-", enhancedNote: "-", ...body })).body.note.id);
  for (const t of ["Kiwi A", "Kiwi B", "Mango C"])
    await make(api, t, { title: t, userWrittenNote: `This is about ${t} only.` });
  await make(api, "secret", { title: "Zebra salary secret", visibility: "only-me" });
  await make(member, "crossing", { title: "Zebra crossing" });
  await make(other, "tenant", { title: "Zebra tenant B confidential" });
  await make(api, "annual", {
    title: "Pricing review",
    transcripts: [seg("Ana", "We agreed on the annual plan for next year.", 0)],
  });
  await make(api, "apart", {
    title: "Travel costs",
    transcripts: [seg("Bo", "The annual budget went over our plan the plane tickets cost more.", 0)],
  });
  await api("POST", "/v1/knowledge", {
    title: "Kiwi handbook",
    content: "How the kiwi team plans its annual offsite.",
  });
  await other("POST", "/v1/knowledge", { title: "Kiwi secrets of B", content: "Tenant B keeps its kiwi plan here." });
  await settled();
}, 420_000);
afterAll(async () => {
  for (const mcp of mcpOf?.values() ?? []) await mcp.close();
  await server?.stop();
});

describe("the words shown with each result are that note's own", () => {
  beforeAll(async () => {
    for (const as of [api, member, other]) await learnAll(as);
  });

  it("across notes: each Kiwi note shows its own title, in every mode", async () => {
    for (const mode of MODES) {
      const results = await searchOf(api)("kiwi", mode);
      const kiwis = results.filter((r) => r.note.title.startsWith("Kiwi"));
      expect(kiwis.map((r) => r.note.title).sort(), mode).toEqual(["Kiwi A", "Kiwi B"]);
      for (const r of results) for (const m of r.matches) expectOwn(api, r.note.id, m.text, `${mode} kiwi`);
      const b = kiwis.find((r) => r.note.title === "Kiwi B")!;
      expect(b.matches.map((m) => m.text).join(" "), mode).toContain("B");
      expect(b.matches.map((m) => m.text).join(" "), mode).not.toContain("Kiwi A");
    }
  });

  it("across privacy: a member's own note never shows the admin's private title", async () => {
    for (const mode of MODES) {
      const results = await searchOf(member)("zebra", mode);
      expect(
        results.map((r) => r.note.id),
        mode,
      ).not.toContain(ids.secret);
      expect(JSON.stringify(results), mode).not.toMatch(/salary|secret/i);
      for (const r of results) for (const m of r.matches) expectOwn(member, r.note.id, m.text, `member ${mode}`);
    }
    const shown = await mcpTexts(memberKey, "zebra");
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) expectOwn(member, s.id, s.text, s.where);
  });

  it("across workspaces: another workspace's search shows none of this one's words", async () => {
    for (const mode of MODES) {
      const results = await searchOf(other)("zebra", mode);
      // By meaning one word may clear no note's floor; by words it finds the one note.
      expect(
        results.map((r) => r.note.id),
        mode,
      ).toEqual(mode === "semantic" && !results.length ? [] : [ids.tenant]);
      for (const r of results) for (const m of r.matches) expectOwn(other, r.note.id, m.text, `B ${mode}`);
      expect(JSON.stringify(results), mode).not.toMatch(/salary|crossing/i);
    }
    const shown = await mcpTexts(otherKey, "kiwi zebra");
    expect(shown.length).toBeGreaterThan(0);
    expect(JSON.stringify(shown)).not.toMatch(/Kiwi [ABC]|handbook|salary|crossing|annual offsite/);
  });

  it("the MCP tools show each note's and article's own words", async () => {
    for (const q of ["kiwi", "zebra", "annual plan", "plan"]) {
      const shown = await mcpTexts(server.key, q);
      expect(shown.length, q).toBeGreaterThan(0);
      for (const s of shown) expectOwn(api, s.id, s.text, `${s.where} "${q}"`);
    }
  });

  it("a phrase is claimed only by notes that say it; the rest are labelled by how they were found", async () => {
    const results = await searchOf(api)("annual plan", "fulltext");
    const byId = new Map(results.map((r) => [r.note.id, r]));
    expect(byId.get(ids.annual)?.foundBy).toBe("phrase");
    expect(byId.get(ids.apart)?.foundBy).toBe("words");
    for (const r of results) for (const m of r.matches) expectOwn(api, r.note.id, m.text, "annual plan");
    const session = await webSession(server.url, memberEmail);
    const page = await (
      await fetch(`${server.url}/notes?${new URLSearchParams({ said: "annual plan" })}`, {
        headers: { cookie: session },
      })
    ).text();
    // The claim and the notes under it, up to the next part of the page.
    const claimed = /(\d+) notes? mentions? “annual plan”\.([\s\S]*?)(?=<h2|<\/section>)/.exec(page);
    expect(claimed, page).not.toBeNull();
    const under = [...claimed![2].matchAll(/href="\/notes\/([^"#?]+)"/g)].map((m) => m[1]);
    expect(new Set(under)).toEqual(new Set([ids.annual]));
    expect(Number(claimed![1])).toBe(1);
    for (const id of under) {
      const n = (await member("GET", `/v1/notes/${id}`)).body.note;
      const said = flat([n.title, n.userWrittenNote, ...n.transcripts.map((s: { text: string }) => s.text)].join(" "));
      expect(said.toLowerCase()).toContain("annual plan");
    }
    expect(page).toContain("Every word, not together");
    expect(page).toMatch(/Every word, not together[\s\S]*Travel costs/);
  });

  it("the web page shows each note's own words", async () => {
    const cookie = await webSession(server.url, memberEmail);
    for (const said of ["kiwi", "zebra", "annual plan"]) {
      const page = await (
        await fetch(`${server.url}/notes?${new URLSearchParams({ said })}`, { headers: { cookie } })
      ).text();
      expect(page).not.toMatch(/salary|secret|tenant/i);
      // Each result's note link, then its match lines (marks as <mark>), up to the next result.
      for (const item of page.split('<li><a class="title" href="/notes/').slice(1)) {
        const id = /^([^"]+)"/.exec(item)![1];
        for (const m of item.matchAll(/<p class="small">([\s\S]*?)<\/p>/g)) {
          const text = m[1]
            .replace(/<\/?mark>/g, "")
            .replace(/&#39;/g, "'")
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, "&");
          expectOwn(member, id, text, `web "${said}"`);
        }
      }
    }
  });

  it("the CLI prints each note's own words", async () => {
    const env = cliEnv({ url: server.url, key: memberKey });
    for (const mode of MODES) {
      const r = await run(["notes", "search", "kiwi", "--mode", mode, "--json"], { env });
      expect(r.code, r.stderr).toBe(0);
      const printed = JSON.parse(r.stdout);
      const results = (Array.isArray(printed) ? printed : printed.items) as {
        note: { id: string };
        matches: { text: string }[];
      }[];
      expect(results.length, mode).toBeGreaterThan(0);
      for (const x of results) for (const m of x.matches) expectOwn(member, x.note.id, m.text, `cli ${mode}`);
    }
    const table = await run(["notes", "search", "kiwi", "--mode", "fulltext"], { env });
    expect(table.code, table.stderr).toBe(0);
    const rowOf = (title: string) => table.stdout.split("\n").find((l) => l.includes(title)) ?? "";
    expect(rowOf("Kiwi B")).not.toMatch(/Kiwi» A|Kiwi A\s*$/);
    expect(rowOf("Kiwi B").replace(/[«»]/g, "")).toMatch(/Kiwi B.*Kiwi B/);
  });

  it("asking cites only what the asker may read, each quote from its own note", async () => {
    for (const [as, question] of [
      [member, "What is the zebra note about?"],
      [api, "What did we agree on the annual plan?"],
      [other, "What does the zebra tenant note say?"],
    ] as const) {
      const r = await as("POST", "/v1/ask", { question }, { accept: "application/json" });
      expect(r.status, r.text).toBe(200);
      for (const c of r.body.citations as { noteId: string; quote: string }[]) {
        expectOwn(as, c.noteId, c.quote, `ask "${question}"`);
      }
      if (as === member || as === other) expect(JSON.stringify(r.body)).not.toMatch(/salary/i);
    }
  });
});

describe("a property: many notes that share their words", () => {
  const VOCAB = ["budget", "launch", "hiring", "pricing", "roadmap", "design", "review", "customer", "plan", "annual"];
  const sentence = fc
    .array(fc.constantFrom(...VOCAB, "the", "for", "we", "next"), { minLength: 4, maxLength: 9 })
    .map((w) => `${w.join(" ")}.`);
  const noteShape = fc.record({
    title: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
    userWrittenNote: fc.oneof(fc.constant(""), sentence),
    summary: fc.oneof(fc.constant("-"), sentence),
    lines: fc.array(sentence, { maxLength: 4 }),
    visibility: fc.constantFrom("workspace", "workspace", "only-me"),
    by: fc.constantFrom("admin", "member", "other"),
  });
  const corpus = fc.sample(noteShape, { numRuns: 36, seed: 70 });
  const made: { id: string; by: string; visibility: string }[] = [];

  beforeAll(async () => {
    const as = { admin: api, member, other } as Record<string, Client>;
    for (const n of corpus) {
      const { body } = await as[n.by]("POST", "/v1/notes", {
        title: n.title,
        userWrittenNote: n.userWrittenNote,
        summary: n.summary,
        enhancedNote: "-",
        visibility: n.visibility,
        transcripts: n.lines.map((l, i) => seg(i % 2 ? "Bo" : "Ana", l, i * 5)),
      });
      made.push({ id: body.note.id, by: n.by, visibility: n.visibility });
    }
    await settled();
  }, 420_000);

  for (const who of ["admin", "member", "other"] as const)
    it(`for ${who}: every match text is a substring of its own note, in every mode and in MCP`, async () => {
      const as = { admin: api, member, other }[who];
      const key = { admin: server.key, member: memberKey, other: otherKey }[who];
      // What this caller may read: their workspace's notes but others' only-me ones, its articles.
      await learnAll(as);
      for (const m of made) if (m.visibility === "only-me" && m.by !== who) expect(ownOf(as).has(m.id)).toBe(false);
      const query = fc.oneof(
        fc.constantFrom(...VOCAB),
        fc.tuple(fc.constantFrom(...VOCAB), fc.constantFrom(...VOCAB)).map(([a, b]) => `${a} ${b}`),
        fc.tuple(fc.constantFrom(...VOCAB), fc.constantFrom(...VOCAB)).map(([a, b]) => `"${a} ${b}"`),
      );
      await fc.assert(
        fc.asyncProperty(query, fc.constantFrom(...MODES), async (q, mode) => {
          for (const r of await searchOf(as)(q, mode))
            for (const m of r.matches) expectOwn(as, r.note.id, m.text, `${who} ${mode} "${q}"`);
          for (const s of await mcpTexts(key, q)) expectOwn(as, s.id, s.text, `${who} ${s.where} "${q}"`);
        }),
        { numRuns: 25, seed: 70 },
      );
    });
});
