// Meaning-based search: the bundled sentence-embedding model, passages in sqlite-vec,
// fused with full text. A question that shares no word with the note still finds it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client as Http } from "../helpers/http.js";
import { connectMcp } from "../helpers/mcp.js";
import { admin, startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { PASSWORD, webSession } from "../helpers/world.js";
import { until } from "../helpers/until.js";
import { IN_FLIGHT_STATUSES } from "../../src/core/note-vocabulary.js";

let server: TestServer;
let api: Http;
let mcp: Client;
let target: string;

const NOTES = [
  "Interview loop for the senior product designer role",
  "Fixing the login bug that logs people out on Safari",
  "Spring marketing campaign: channels and creative",
  "Timeline for the Postgres database migration",
  "Customer churn analysis for the enterprise segment",
  "Team offsite games and dinner reservations",
  "Quarterly OKR check-in for the platform team",
  "Security audit findings and remediation owners",
];

async function search(query: string, extra: Record<string, unknown> = {}) {
  const r = await mcp.callTool({ name: "svc_search_knowledge", arguments: { query, limit: 3, ...extra } });
  return r.structuredContent as {
    results: { source: string; id: string; title: string; timestamp?: string }[];
    mode: string;
  };
}

async function indexed(expected: number) {
  // Indexing runs as background jobs after each write, on the bundled model: a loaded
  // machine takes minutes where an idle one takes seconds.
  await until(
    `${expected} sources indexed`,
    async () => {
      const [{ n }] = await storeQuery(server.dataDir, "SELECT count(DISTINCT source_id) AS n FROM passages");
      return Number(n) >= expected;
    },
    240_000,
    250,
  );
}

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"], env: { NOTULA_EMBEDDINGS: "local" } });
  api = client(server.url, server.key);
  for (const title of NOTES)
    await api("POST", "/v1/notes", { title, userWrittenNote: `Notes about: ${title.toLowerCase()}.` });
  target = (
    await api("POST", "/v1/notes", {
      title: "Facilities sync",
      summary: "We discussed the quarterly budget for the Lisbon office relocation.",
      transcripts: [
        {
          speaker: "Ana",
          text: "The relocation budget needs approval from finance.",
          startTimestamp: "12:30",
          endTimestamp: "12:40",
        },
      ],
    })
  ).body.note.id;
  await api("POST", "/v1/knowledge", {
    title: "Expense policy",
    content: "Hotel stays are reimbursed up to a nightly cap.",
  });
  mcp = (await connectMcp(server.url, server.key, "semantic-test")).client;
  await indexed(10);
}, 300_000);
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

describe("svc_search_knowledge by meaning", () => {
  it("finds the note for a question phrased without its words, in the top 3", async () => {
    // Close enough in meaning to clear the bundled model's floor, with no word in common.
    const r = await search("Moving the workplace to Portugal: what is the price?");
    expect(r.mode).toBe("hybrid");
    expect(r.results.slice(0, 3).map((x) => x.id)).toContain(target);
  });

  it("finds knowledge-base articles the same way", async () => {
    const r = await search("refund for accommodation");
    expect(r.results.slice(0, 3).map((x) => x.title)).toContain("Expense policy");
  });

  it("a question about what was said in the meeting finds it, at the moment it was said", async () => {
    // Said in the transcript only ("needs approval from finance"), not in the title or summary.
    const r = await search("Does finance have to approve it?", { limit: 5 });
    const hit = r.results.find((x) => x.id === target);
    expect(hit).toMatchObject({ timestamp: "12:30" });
  });

  it("indexes a meeting whose processing was queued once, when its processing settled, not also when it was made", async () => {
    const made = (
      await api("POST", "/v1/notes", {
        title: "Vendor review",
        transcripts: [
          {
            speaker: "Ben",
            text: "The vendor contract renews in May.",
            startTimestamp: "00:05",
            endTimestamp: "00:09",
          },
        ],
      })
    ).body.note;
    // Made to be summarised: its processing is queued with it.
    expect(made.status).toBe("summarizing");
    const id = made.id;
    await until(
      "the meeting's processing settled",
      async () => !IN_FLIGHT_STATUSES.has((await api("GET", `/v1/notes/${id}`)).body.note.status),
      120_000,
      250,
    );
    // Its index job is queued with the settled status, in the same transaction: it exists now.
    // Read as each database gives it (text on SQLite, json on PostgreSQL).
    const payloads = (await storeQuery(server.dataDir, "SELECT payload FROM jobs WHERE kind = 'index-passages'")).map(
      (r) => (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as { id: string },
    );
    expect(payloads.filter((p) => p.id === id)).toHaveLength(1);
  });

  it("follows edits and deletions", async () => {
    const { note } = (await api("POST", "/v1/notes", { title: "Kitchen renovation estimate" })).body;
    await indexed(11);
    await api("PATCH", `/v1/notes/${note.id}`, { title: "Choosing a new coffee machine for the kitchen" });
    // The new title is found by its meaning once it is indexed again.
    await until(
      "the renamed note found by meaning",
      async () => (await search("espresso maker purchase")).results.slice(0, 3).some((x) => x.id === note.id),
      240_000,
      250,
    );
    await api("DELETE", `/v1/notes/${note.id}`);
    expect((await search("espresso maker purchase", { limit: 50 })).results.map((x) => x.id)).not.toContain(note.id);
  }, 600_000);
});

describe("without an embedding model", () => {
  it("falls back to full text and says so", async () => {
    const plain = await startServer({ args: ["--no-rate-limit"] });
    try {
      const { client: c } = await connectMcp(plain.url, plain.key, "plain");
      const r = (await c.callTool({ name: "svc_search_knowledge", arguments: { query: "anything" } }))
        .structuredContent as { mode: string; note: string };
      expect(r.mode).toBe("full-text");
      expect(r.note).toMatch(/no embedding model/);
      await c.close();
    } finally {
      await plain.stop();
    }
  });
});

describe("GET /v1/search by meaning", () => {
  it("semantic mode finds the moment though no word is shared, with its time and speaker", async () => {
    const r = await api(
      "GET",
      `/v1/search?${new URLSearchParams({ q: "How much does moving our office to Portugal cost?", mode: "semantic", limit: "3" })}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe("semantic");
    expect(r.body.results[0].note.id).toBe(target);
    const moment = r.body.results[0].matches.find((m: { segment: number | null }) => m.segment !== null);
    expect(moment).toMatchObject({ segment: 0, startTimestamp: "12:30", speaker: "Ana" });
    expect(moment.text).toContain("relocation budget");
  });

  it("labels what only meaning found, and answers a query nothing is about with nothing, in every mode", async () => {
    const q = "Moving the workplace to Portugal: what is the price?";
    const related = (await api("GET", `/v1/search?${new URLSearchParams({ q })}`)).body.results;
    expect(related.map((x: { note: { id: string }; foundBy: string }) => [x.note.id, x.foundBy])).toContainEqual([
      target,
      "meaning",
    ]);
    for (const mode of ["hybrid", "semantic", "fulltext"])
      for (const nothing of ["zebra xylophone", "wedding cake flavours", "penguin colonies of Antarctica"]) {
        const r = await api("GET", `/v1/search?${new URLSearchParams({ q: nothing, mode })}`);
        expect(r.status).toBe(200);
        expect(r.body.results, `${mode}: ${nothing}`).toEqual([]);
      }
    const k = await search("zebra xylophone", { limit: 10 });
    expect(k.results).toEqual([]);
  });

  it("the web app shows what was said apart from what is related by meaning, and says when nothing is found", async () => {
    await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
    const cookie = await webSession(server.url, "admin@notula.local");
    const page = async (said: string) =>
      (await fetch(`${server.url}/notes?${new URLSearchParams({ said })}`, { headers: { cookie } })).text();
    const related = await page("Moving the workplace to Portugal: what is the price?");
    expect(related).toContain("No note mentions “Moving the workplace to Portugal: what is the price?”.");
    expect(related).toMatch(/<h2 class="related">Related by meaning<\/h2>[\s\S]*Facilities sync/);
    const none = await page("zebra xylophone");
    expect(none).toContain("No note mentions “zebra xylophone”. Check the spelling, or try other or fewer words.");
    expect(none).not.toContain("Related by meaning");
    expect(await page("relocation budget")).toContain("1 note mentions “relocation budget”.");
    const common = await page("the of and");
    expect(common).toContain("too common to search for");
    expect(common).not.toContain("q: ");
  });

  it("hybrid mode fuses words and meaning; fulltext alone misses what shares no word", async () => {
    const q = "moving our office to Portugal";
    const hybrid = await api("GET", `/v1/search?${new URLSearchParams({ q, limit: "3" })}`);
    expect(hybrid.body.mode).toBe("hybrid");
    expect(hybrid.body.results.map((x: { note: { id: string } }) => x.note.id)).toContain(target);
    const fulltext = await api("GET", `/v1/search?${new URLSearchParams({ q: "Portugal", mode: "fulltext" })}`);
    expect(fulltext.body.results).toEqual([]);
  });
});
