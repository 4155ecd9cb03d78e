// `notula admin reindex`: the meaning-based index rebuilt beside a running server,
// with progress, and only what is missing when asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { run, startServer, storeQuery, type TestServer } from "../helpers/server.js";

let server: TestServer;

beforeAll(async () => {
  // The server itself indexes nothing (embeddings off); the admin command does it.
  server = await startServer({ args: ["--no-rate-limit"] });
  const api = client(server.url, server.key);
  for (const title of ["Budget review", "Hiring plan", "Office move"])
    await api("POST", "/v1/notes", {
      title,
      transcripts: [
        {
          speaker: "Ana",
          text: `We talked about the ${title.toLowerCase()}.`,
          startTimestamp: "00:00",
          endTimestamp: "00:05",
        },
      ],
    });
  await api("POST", "/v1/knowledge", { title: "Travel policy", content: "Book flights two weeks ahead." });
});
afterAll(() => server?.stop());

describe("notula admin reindex", () => {
  it("embeds every note and article with progress, then only what is missing", async () => {
    const env = { NOTULA_EMBEDDINGS: "local" };
    const first = await run(["admin", "reindex", "--data-dir", server.dataDir], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Indexed 4 notes and articles with use-lite-512.");
    expect(first.stderr).toMatch(/Indexing with use-lite-512: 100% \(4 of 4\)/);
    const rows = await storeQuery<{ source: string; model: string; n: number }>(
      server.dataDir,
      "SELECT source, model, count(*) AS n FROM passages GROUP BY source, model ORDER BY source",
    );
    expect(rows.map((r) => [r.source, r.model])).toEqual([
      ["article", "use-lite-512"],
      ["note", "use-lite-512"],
    ]);
    expect(Number(rows[1].n)).toBeGreaterThanOrEqual(6);

    const again = await run(["admin", "reindex", "--data-dir", server.dataDir, "--missing", "--json"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ indexed: 0, skipped: 4, model: "use-lite-512", cells: [] });

    const off = await run(["admin", "reindex", "--data-dir", server.dataDir], { env: { NOTULA_EMBEDDINGS: "none" } });
    expect(off.code).toBe(2);
    expect(off.stderr).toMatch(/Meaning-based search is off/);
  }, 60_000);

  it("builds the vector cells of a workspace past the threshold, with progress, and only once", async () => {
    const api = client(server.url, server.key);
    const paragraph = (i: number) =>
      `Point ${i}: the ${["budget", "roadmap", "hiring plan", "office move", "pricing"][i % 5]} needs another look before the next review. `.repeat(
        6,
      );
    for (let n = 0; n < 12; n++)
      await api("POST", "/v1/notes", {
        title: `Long note ${n}`,
        userWrittenNote: Array.from({ length: 10 }, (_, i) => paragraph(n * 10 + i)).join("\n\n"),
      });
    const env = { NOTULA_EMBEDDINGS: "local", NOTULA_VECTOR_INDEX_AT: "100" };
    const indexed = await run(["admin", "reindex", "--data-dir", server.dataDir, "--missing", "--json"], { env });
    expect(indexed.code, indexed.stderr).toBe(0);
    const out = JSON.parse(indexed.stdout);
    expect(out.indexed).toBe(12);
    expect(out.cells).toHaveLength(1);
    const [built] = out.cells;
    expect(built.passages).toBeGreaterThanOrEqual(100);
    expect(built.cells).toBeGreaterThanOrEqual(16);
    expect(indexed.stderr).toMatch(/Building vector cells for \S+ \(\d+ passages\): 100%/);
    const cells = await storeQuery<{ n: number }>(
      server.dataDir,
      "SELECT count(DISTINCT cell) AS n FROM passage_members WHERE cell > 0",
    );
    expect(Number(cells[0].n)).toBeGreaterThan(1);
    const unplaced = await storeQuery<{ n: number }>(
      server.dataDir,
      "SELECT count(*) AS n FROM passage_members WHERE cell = 0",
    );
    expect(Number(unplaced[0].n)).toBe(0);

    const again = await run(["admin", "reindex", "--data-dir", server.dataDir, "--cells-only"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("No workspace is due new vector cells.");
    // A generous bound, not a measure: the model embeds below the machine's other work
    // (nice 10), so a loaded machine stretches this from half a minute to several.
  }, 600_000);
});
