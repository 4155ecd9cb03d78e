// Meaning-based search on SQLite by binary quantization: the bit scan's candidates,
// ranked exactly, give the exact scan's answer on real sentence embeddings; vectors
// stored by earlier versions (one float table per size, then one bit table per size
// partitioned by workspace only) move over at open.
import { describe, expect, it } from "vitest";
import { createLocalEmbedder } from "../../src/ai/embeddings/local.js";
import { createRepositories } from "../../src/db/repos/index.js";
import { openDatabase } from "../../src/db/open.js";
import { tempDir } from "../helpers/server.js";

const TOPICS = [
  "budget",
  "hiring",
  "the database migration",
  "pricing",
  "the offsite",
  "security",
  "the mobile app",
  "onboarding",
  "marketing",
  "support tickets",
];
const VERBS = [
  "We discussed",
  "Ana raised concerns about",
  "The team agreed on",
  "Bo asked for an update on",
  "Nobody had time for",
];
const WHEN = ["this week", "next quarter", "before the launch", "after the holidays"];

describe("passage bits", () => {
  it("find the exact nearest passages on real sentence embeddings", async () => {
    const sentences: string[] = [];
    for (const t of TOPICS) for (const v of VERBS) for (const w of WHEN) sentences.push(`${v} ${t} ${w}.`);
    const embedder = createLocalEmbedder();
    const vectors = await embedder.embed(sentences);
    const lite = openDatabase(`${tempDir()}/bits.db`);
    const repos = createRepositories(lite.db);
    await repos.workspaces.insert({
      id: "ws_1",
      name: "W",
      plan: "pro",
      settings: {},
      allowedEmailDomains: [],
      iconUrl: null,
      createdAt: 1,
      updatedAt: 1,
    });
    for (let i = 0; i < sentences.length; i += 10)
      await repos.passages.replace(
        "note",
        `note_${i}`,
        "ws_1",
        sentences.slice(i, i + 10).map((text) => ({ text, timestampSec: null })),
        vectors.slice(i, i + 10),
        embedder.name,
      );
    const queries = await embedder.embed([
      "money for next year",
      "new employees",
      "app for phones",
      "customers waiting for answers",
      "password leaks",
    ]);
    for (const q of queries) {
      const approx = (await repos.passages.nearest("ws_1", q, 10, embedder.name)).map((h) => h.text);
      const exact = (await repos.passages.nearestExact("ws_1", q, 10, embedder.name)).map((h) => h.text);
      expect(approx).toEqual(exact);
    }
    // Another model's vectors are never compared.
    expect(await repos.passages.nearest("ws_1", queries[0], 10, "another-model")).toEqual([]);
    lite.close();
  }, 60_000);

  it("move an earlier version's float tables into the passages and bit tables at open", async () => {
    const file = `${tempDir()}/legacy.db`;
    const first = openDatabase(file);
    first.sqlite.exec(
      "INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, icon_url, created_at, updated_at) VALUES ('ws_1', 'W', 'pro', '{}', '[]', NULL, 1, 1)",
    );
    // What an earlier version wrote: the passage, and its vector in passage_vectors_8.
    first.sqlite.exec(
      "CREATE VIRTUAL TABLE passage_vectors_8 USING vec0(workspace_id text partition key, embedding float[8] distance_metric=cosine)",
    );
    const near = Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]);
    const far = Float32Array.from([0, 0, 0, 0, 0, 0, 0, 1]);
    for (const [id, vec] of [
      [1, near],
      [2, far],
    ] as const) {
      first.sqlite
        .prepare(
          "INSERT INTO passages (id, workspace_id, source, source_id, position, text, timestamp_sec, model, dims) VALUES (?, 'ws_1', 'note', ?, 0, ?, NULL, 'm', 8)",
        )
        .run(id, `note_${id}`, `passage ${id}`);
      first.sqlite
        .prepare("INSERT INTO passage_vectors_8(rowid, workspace_id, embedding) VALUES (?, 'ws_1', ?)")
        .run(BigInt(id), vec);
    }
    first.close();

    const again = openDatabase(file);
    expect(
      again.sqlite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'passage_vectors_8'").pluck().get(),
    ).toBe(0);
    expect(again.sqlite.prepare("SELECT count(*) FROM passages WHERE embedding IS NOT NULL").pluck().get()).toBe(2);
    expect(again.sqlite.prepare("SELECT count(*) FROM passage_codes_8").pluck().get()).toBe(2);
    expect(again.sqlite.prepare("SELECT count(*) FROM passage_members WHERE cell = 0").pluck().get()).toBe(2);
    expect(
      again.sqlite
        .prepare("SELECT passages FROM passage_indexes WHERE workspace_id = 'ws_1' AND dims = 8")
        .pluck()
        .get(),
    ).toBe(2);
    const repos = createRepositories(again.db);
    expect(
      (await repos.passages.nearest("ws_1", Float32Array.from([0.9, 0.1, 0, 0, 0, 0, 0, 0]), 2, "m")).map(
        (h) => h.sourceId,
      ),
    ).toEqual(["note_1", "note_2"]);
    again.close();
  });

  it("move the previous version's bit tables (partitioned by workspace only) into the cell tables at open", async () => {
    const file = `${tempDir()}/bits.db`;
    const first = openDatabase(file);
    first.sqlite.exec(
      "INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, icon_url, created_at, updated_at) VALUES ('ws_1', 'W', 'pro', '{}', '[]', NULL, 1, 1)",
    );
    first.sqlite.exec(
      "INSERT INTO workspaces (id, name, plan, settings, allowed_email_domains, icon_url, created_at, updated_at) VALUES ('ws_2', 'X', 'pro', '{}', '[]', NULL, 1, 1)",
    );
    // What the previous version had: the vector in the passage, its bits in passage_bits_8;
    // and (as migration 0017 leaves it) no code table yet.
    first.sqlite.exec("DROP TABLE IF EXISTS passage_codes_8; DELETE FROM passage_members; DELETE FROM passage_indexes");
    first.sqlite.exec(
      "CREATE VIRTUAL TABLE passage_bits_8 USING vec0(workspace_id text partition key, embedding bit[8])",
    );
    const vectors = [
      Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0.1]),
      Float32Array.from([0, 0, 0, 0, 0, 0, 0.1, 1]),
      Float32Array.from([1, 0.2, 0, 0, 0, 0, 0, 0]),
    ];
    vectors.forEach((vec, i) => {
      const ws = i === 2 ? "ws_2" : "ws_1";
      first.sqlite
        .prepare(
          "INSERT INTO passages (id, workspace_id, source, source_id, position, text, timestamp_sec, model, dims, embedding) VALUES (?, ?, 'note', ?, 0, ?, NULL, 'm', 8, ?)",
        )
        .run(i + 1, ws, `note_${i + 1}`, `passage ${i + 1}`, vec);
      first.sqlite
        .prepare("INSERT INTO passage_bits_8(rowid, workspace_id, embedding) VALUES (?, ?, vec_quantize_binary(?))")
        .run(BigInt(i + 1), ws, vec);
    });
    first.sqlite.exec(
      "INSERT INTO passage_members (passage_id, workspace_id, dims, cell) SELECT id, workspace_id, dims, 0 FROM passages",
    );
    first.close();

    const again = openDatabase(file);
    expect(again.sqlite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'passage_bits_8'").pluck().get()).toBe(
      0,
    );
    expect(again.sqlite.prepare("SELECT count(*) FROM passage_codes_8").pluck().get()).toBe(3);
    expect(
      again.sqlite.prepare("SELECT workspace_id, passages FROM passage_indexes ORDER BY workspace_id").raw().all(),
    ).toEqual([
      ["ws_1", 2],
      ["ws_2", 1],
    ]);
    const repos = createRepositories(again.db);
    expect((await repos.passages.nearest("ws_1", vectors[0], 5, "m")).map((h) => h.sourceId)).toEqual([
      "note_1",
      "note_2",
    ]);
    expect((await repos.passages.nearest("ws_2", vectors[0], 5, "m")).map((h) => h.sourceId)).toEqual(["note_3"]);
    // A note written now goes on as before.
    await repos.passages.replace("note", "note_4", "ws_1", [{ text: "new", timestampSec: 0 }], [vectors[0]], "m");
    expect((await repos.passages.nearest("ws_1", vectors[0], 1, "m")).map((h) => h.sourceId)).toEqual(["note_1"]);
    expect(again.sqlite.prepare("SELECT passages FROM passage_indexes WHERE workspace_id = 'ws_1'").pluck().get()).toBe(
      3,
    );
    again.close();
  });
});
