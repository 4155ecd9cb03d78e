// The server partitions a workspace's passages into vector cells by itself, in the
// background, once they pass the threshold (NOTULA_VECTOR_INDEX_AT), and search by
// meaning goes on finding the moment, for notes written before the build and after.
// On SQLite, and on PostgreSQL without pgvector (Debian's has none).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

/** Which cell each passage is in: a table of its own on SQLite, beside the vector on PostgreSQL. */
const postgres = process.env.NOTULA_TEST_BACKEND === "postgres";
const members = postgres ? "passage_vectors" : "passage_members";

let server: TestServer;
let api: Client;

const TOPICS = [
  "the quarterly budget",
  "hiring two engineers",
  "the office move to Lisbon",
  "pricing for the enterprise plan",
  "the database migration",
];

beforeAll(async () => {
  server = await startServer({
    args: ["--no-rate-limit"],
    env: { NOTULA_EMBEDDINGS: "local", NOTULA_VECTOR_INDEX_AT: "100" },
  });
  api = client(server.url, server.key);
}, 60_000);
afterAll(() => server?.stop());

const semantic = async (q: string) =>
  (await api("GET", `/v1/search?${new URLSearchParams({ q, mode: "semantic", limit: "3" })}`)).body;

describe("vector cells on a running server", () => {
  it("are built in the background past the threshold; search finds notes from before and after", async () => {
    // Twelve long notes: well over a hundred passages.
    for (let n = 0; n < 12; n++) {
      const body = Array.from({ length: 10 }, (_, i) =>
        `Item ${i}: we went over ${TOPICS[(n + i) % TOPICS.length]} and agreed to revisit it. `.repeat(6),
      ).join("\n\n");
      await api("POST", "/v1/notes", { title: `Weekly sync ${n}`, userWrittenNote: body });
    }
    const target = (
      await api("POST", "/v1/notes", {
        title: "Facilities",
        transcripts: [
          // Long enough that what follows is a passage of its own.
          {
            speaker: "Ana",
            text: "Good morning everyone, let us go round the table with the week's news. ".repeat(9),
            startTimestamp: "00:00",
            endTimestamp: "07:29",
          },
          {
            speaker: "Bo",
            text: "The coffee machine on the third floor is broken again.",
            startTimestamp: "07:30",
            endTimestamp: "07:36",
          },
        ],
      })
    ).body.note.id;

    // Indexing, then the build, run as jobs: wait for the passages to be in their cells.
    const state = async () =>
      (
        await storeQuery<{ generation: number; passages: number; unplaced: number; notes: number }>(
          server.dataDir,
          `SELECT generation, passages, (SELECT count(*) FROM ${members} WHERE cell = 0) AS unplaced,
                (SELECT count(DISTINCT source_id) FROM passages) AS notes FROM passage_indexes`,
        )
      )[0];
    await until(
      "every note indexed and the vector cells built",
      async () => {
        const s = await state();
        return (
          s &&
          Number(s.notes) === 13 &&
          Number(s.generation) >= 1 &&
          // Passages indexed while the build ran wait in cell 0 until a thousand do.
          Number(s.unplaced) < Number(s.passages) / 2 &&
          Number(s.passages) >= 100
        );
      },
      // Generous: the model embeds below the machine's other work (nice 10), so a loaded
      // machine stretches the half minute this takes to several.
      480_000,
    );

    const found = await semantic("the espresso machine upstairs is broken");
    expect(found.results[0].note.id).toBe(target);
    expect(found.results[0].matches[0]).toMatchObject({ startTimestamp: "07:30", speaker: "Bo" });

    // Written after the build: found at once, from cell 0, where it waits to be placed
    // with the next thousand (a note's passages dirty one cell's pages, not ten).
    const late = (
      await api("POST", "/v1/notes", {
        title: "Parking",
        userWrittenNote: "Bicycle racks in the garage are full every morning.",
      })
    ).body.note.id;
    await until(
      "the note written after the build to be found",
      async () =>
        (await semantic("nowhere to park my bike")).results.some((r: { note: { id: string } }) => r.note.id === late),
      240_000,
    );
    const cells = await storeQuery<{ cell: number }>(
      server.dataDir,
      `SELECT m.cell FROM ${members} m JOIN passages p ON p.id = m.passage_id WHERE p.source_id = '${late}'`,
    );
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => Number(c.cell) === 0)).toBe(true);
  }, 780_000);
});
