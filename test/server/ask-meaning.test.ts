// A question asked in other words than its meetings': a meeting that happens to say
// every word of it, about other things, must not hide the meetings that answer it,
// which share only some of its words but its meaning (the bundled sentence model's).
// And the other way: where meetings say the question's words, one near it in meaning
// alone, about another subject, is not cited beside them.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server.js";
import { client } from "../helpers/http.js";
import { waitForStatus } from "../helpers/flow.js";
import { until } from "../helpers/until.js";

let server: TestServer;
let api: ReturnType<typeof client>;
const updates: string[] = [];
let chance = "";
const outages: string[] = [];
let nearby = "";
const QUESTION = "Where does the Lisbon office stand now?";

async function make(title: string, lines: string[]) {
  const r = await api("POST", "/v1/notes", {
    title,
    transcripts: lines.map((text, i) => ({
      speaker: i % 2 ? "Ben" : "Ana",
      text,
      startTimestamp: `00:${String(i * 9).padStart(2, "0")}`,
      endTimestamp: `00:${String(i * 9 + 8).padStart(2, "0")}`,
    })),
  });
  expect(r.status, r.text).toBe(200);
  return r.body.note.id as string;
}

const semantic = async (q: string) =>
  (await api("GET", `/v1/search?${new URLSearchParams({ q, mode: "semantic", limit: "50" })}`)).body.results.map(
    (x: { note: { id: string } }) => x.note.id,
  ) as string[];

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"], env: { NOTULA_EMBEDDINGS: "local" } });
  api = client(server.url, server.key);
  // The weekly syncs that answer it: "Lisbon" and "now", not "office" nor "stand". More of
  // them than a question reads by meaning (12), so that their meaning, not the count of
  // meetings, is what ranks them above the one below.
  for (let i = 0; i < 13; i++)
    updates.push(
      await make(`Weekly sync ${i + 1}`, [
        "The coffee machine on the third floor has been broken for two weeks.",
        "Update on the Lisbon lease: the landlord lowered the increase to eight percent.",
        "The Porto move is now estimated at fifty five thousand euros with furniture.",
      ]),
    );
  // Every word of the question ("standup" starts with "stand"), said about billing and exports.
  chance = await make("Team standup", [
    "The billing system double charged about two hundred customers on the first of the month.",
    "Refunds went out within a day and we emailed everyone affected.",
    "A test now checks that no invoice is created twice.",
    "The nightly data export now takes five hours instead of one.",
    "The warehouse query scans the whole events table every night.",
    "The export for the Lisbon office goes out on Mondays.",
  ]);
  for (let i = 0; i < 3; i++)
    outages.push(
      await make(`Incident review ${i + 1}`, [
        "The database was down for forty minutes on Tuesday night.",
        "A schema migration locked the orders table and checkout timed out.",
        "From now on migrations only run outside business hours with a rollback script.",
      ]),
    );
  // Near the outages in meaning (a slow table at night), none of the question's subject.
  nearby = await make("Data review", [
    "The nightly data export now takes five hours instead of one.",
    "The warehouse query scans the whole events table every night.",
    "Partitioning the table by month should fix the slowness.",
  ]);
  for (const id of [...updates, chance, ...outages, nearby]) await waitForStatus(api, id, undefined, 120_000);
  // Each note is indexed once it has settled, in the background: wait until all are.
  await until(
    "every meeting indexed for search by meaning",
    async () => {
      const found = new Set([
        ...(await semantic("landlord lowered the lease")),
        ...(await semantic("billing refunds")),
        ...(await semantic("schema migration locked the orders table")),
      ]);
      return [...updates, chance, ...outages, nearby].every((id) => found.has(id));
    },
    120_000,
    250,
  );
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

it("cites the meetings that answer a question in other words, not only one that says its words by chance", async () => {
  const r = await api("POST", "/v1/ask", { question: QUESTION }, { accept: "application/json" });
  expect(r.status, r.text).toBe(200);
  const cited = r.body.citations.map((c: { noteId: string }) => c.noteId);
  expect(
    cited.some((id: string) => updates.includes(id)),
    JSON.stringify(r.body.citations),
  ).toBe(true);
});

it("does not cite a meeting near the question in meaning alone beside the meetings that say its words", async () => {
  // The bundled model finds the data review related to the question by meaning...
  expect(await semantic("the schema migration that locked the orders table")).toContain(nearby);
  // ...but the meetings that say its words are closer: only they answer it.
  const r = await api(
    "POST",
    "/v1/ask",
    { question: "What was said about the schema migration that locked the orders table?" },
    { accept: "application/json" },
  );
  expect(r.status, r.text).toBe(200);
  const cited = new Set(r.body.citations.map((c: { noteId: string }) => c.noteId));
  expect([...cited].sort(), JSON.stringify(r.body.citations)).toEqual([...outages].sort());
});
