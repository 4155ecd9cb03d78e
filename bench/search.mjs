// Search speed at scale: BENCH_NOTES meetings (default 10,000) of BENCH_WORDS words of
// transcript (default 1,500), seeded straight into SQLite with their full-text rows, and
// their passage vectors written and partitioned into cells by the product's own code
// (bench/kit.ts, built into bench/.kit/). Vectors are real sentence embeddings (the bundled model) of a
// pool of sentences, with noise, so that their spread is a real model's, at seeding speed.
// Reports, each beside its baseline of the same run:
//   full-text search for a rare and a common word over HTTP, against the bare FTS5
//   query and a LIKE scan of the transcripts (as peers without an index do it);
//   the vector search (nearest cells, bits, exact re-rank) against comparing every
//   vector, with recall@10; hybrid search over HTTP (embedding the query included);
//   vector writes per second; the cells' build time; the server's memory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer, stopServer, rssMb } from "./lib.mjs";
import { embeddingPool, passageVector } from "./vectors.mjs";

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const WORDS = Number(process.env.BENCH_WORDS ?? 1500);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SEGMENT_WORDS = 15;
const PASSAGE_CHARS = 600;

let state = 42;
const rand = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;

// A vocabulary with a long tail, as speech has: a few words are everywhere.
const VOCAB = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
const COMMON = ["the", "we", "budget", "team", "customer", "next", "week", "plan", "project", "update"];
const word = () =>
  rand() < 0.35 ? COMMON[Math.floor(rand() * COMMON.length)] : VOCAB[Math.floor(VOCAB.length * rand() ** 3)];
/** A word said in one meeting of every 5,000, about: what "rare" means here. */
const RARE = "zeppelin";

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function timeIt(fn, runs = RUNS) {
  for (let i = 0; i < 3; i++) await fn(i);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/**
 * Notes, segments and their full-text rows straight into SQLite (seeding, not measured);
 * passages through the product's own repository, as the indexer writes them (measured:
 * vector writes per second), into cell 0; the cells are built afterwards, as the
 * server's background build does it (measured too).
 */
async function seed(dbFile, pool) {
  const { openDatabase, createRepositories } = await import("./.kit/kit.js");
  const opened = openDatabase(dbFile);
  const db = opened.sqlite;
  db.pragma("synchronous = OFF");
  const repos = createRepositories(opened.db);
  const ws = db.prepare("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").get().id;
  const user = db.prepare("SELECT user_id FROM members WHERE workspace_id = ? LIMIT 1").get(ws).user_id;
  const insNote = db.prepare(
    `INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, user_written_note, enhanced_note, summary, total_duration_sec, participants, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'online', 'completed', 'workspace', '', '', ?, ?, '[]', ?, ?) RETURNING seq`,
  );
  const insSeg = db.prepare(
    "INSERT INTO transcript_segments (note_id, position, speaker, text, start_sec, end_sec) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insFts = db.prepare("INSERT INTO notes_fts (rowid, title, body) VALUES (?, ?, ?)");
  const insSegFts = db.prepare("INSERT INTO segments_fts (rowid, text) VALUES (?, ?)");
  const now = Date.now();
  let vectors = 0;
  let vectorMs = 0;
  const rareNotes = [];
  const step = 1000;
  for (let start = 0; start < NOTES; start += step) {
    db.exec("BEGIN");
    for (let i = start; i < Math.min(NOTES, start + step); i++) {
      const id = `note_bench${i}`;
      const createdAt = now - (NOTES - i) * 60_000;
      const segments = [];
      for (let s = 0; s * SEGMENT_WORDS < WORDS; s++) {
        const words = Array.from({ length: SEGMENT_WORDS }, word);
        if (i % 5000 === 17 && s === 3) {
          words[4] = RARE;
          rareNotes.push(id);
        }
        segments.push({ text: words.join(" ") + ".", start: s * 6 });
      }
      const title = `Meeting ${i} about ${word()} and ${word()}`;
      const { seq } = insNote.get(id, ws, user, title, "-", segments.length * 6, createdAt, createdAt);
      segments.forEach((s, p) => {
        insSeg.run(id, p, p % 2 ? "Bo" : "Ana", s.text, s.start, s.start + 6);
        insSegFts.run(BigInt(seq) * 1048576n + BigInt(p), s.text);
      });
      insFts.run(seq, title, segments.map((s) => s.text).join("\n"));
      // Passages as the indexer cuts them: transcript windows of about 600 characters.
      const items = [];
      let window = null;
      for (const s of segments) {
        if (window && window.text.length + s.text.length > PASSAGE_CHARS) {
          items.push({ text: window.text, timestampSec: window.start });
          window = null;
        }
        window = window ? { text: `${window.text} ${s.text}`, start: window.start } : { text: s.text, start: s.start };
      }
      if (window) items.push({ text: window.text, timestampSec: window.start });
      const embedded = items.map(() => passageVector(pool));
      const t = performance.now();
      await repos.passages.replace("note", id, ws, items, embedded, "use-lite-512");
      vectorMs += performance.now() - t;
      vectors += items.length;
    }
    db.exec("COMMIT");
    if ((start / step) % 10 === 0)
      process.stderr.write(`seeded ${Math.min(NOTES, start + step).toLocaleString("en")} notes\r`);
  }
  opened.close();
  return { workspaceId: ws, vectors, vectorsPerSec: vectors / (vectorMs / 1000), rareNotes };
}

/**
 * Passages written with the server's durability (each commit on disk before it
 * returns): `perCommit` notes of ten passages per transaction, as the server's indexer
 * writes them (one) and as `notula admin reindex` does (25). The baseline is the same
 * rows (text and vector) written bare into a table of their own with the same commits,
 * in turns with the product's writes, so that a disk slow today slows both alike: its
 * sync to disk, not the index, is most of a small transaction's cost.
 */
async function timedWrites(repos, sqlite, workspaceId, pool, tag, perCommit) {
  const notes = 500;
  const turn = 50;
  const sets = Array.from({ length: notes }, (_, i) => {
    const items = Array.from({ length: 10 }, (_, p) => ({ text: `${tag} passage ${i}.${p}`, timestampSec: p * 40 }));
    return {
      source: "note",
      sourceId: `note_${tag}${i}`,
      workspaceId,
      items,
      vectors: items.map(() => passageVector(pool)),
      model: "use-lite-512",
    };
  });
  sqlite.exec(
    "CREATE TABLE bench_bare_passages (id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, position INTEGER NOT NULL, text TEXT NOT NULL, embedding BLOB NOT NULL)",
  );
  const insertBare = sqlite.prepare(
    "INSERT INTO bench_bare_passages (source_id, position, text, embedding) VALUES (?, ?, ?, ?)",
  );
  const writeBare = sqlite.transaction((batch) =>
    batch.forEach((s) => s.items.forEach((item, p) => insertBare.run(s.sourceId, p, item.text, s.vectors[p]))),
  );
  let productMs = 0;
  let bareMs = 0;
  for (let start = 0; start < notes; start += turn) {
    let t = performance.now();
    for (let i = start; i < start + turn; i += perCommit) writeBare(sets.slice(i, i + perCommit));
    bareMs += performance.now() - t;
    t = performance.now();
    for (let i = start; i < start + turn; i += perCommit)
      await repos.passages.replaceMany(sets.slice(i, i + perCommit));
    productMs += performance.now() - t;
  }
  sqlite.exec("DROP TABLE bench_bare_passages");
  for (const s of sets) await repos.passages.remove("note", s.sourceId);
  return { perSec: (notes * 10) / (productMs / 1000), bare: (notes * 10) / (bareMs / 1000) };
}

/** Builds the workspace's vector cells as the server's background job does, with progress; writes before and after. */
async function buildCells(dbFile, workspaceId, pool) {
  const { openDatabase, createRepositories, buildVectorIndex } = await import("./.kit/kit.js");
  const opened = openDatabase(dbFile);
  try {
    const repos = createRepositories(opened.db);
    const writesBefore = {
      one: await timedWrites(repos, opened.sqlite, workspaceId, pool, "before", 1),
      batch: await timedWrites(repos, opened.sqlite, workspaceId, pool, "beforeb", 25),
    };
    const t = performance.now();
    let last = -1;
    await buildVectorIndex(repos, Date.now, { workspaceId, dims: 512 }, (p) => {
      const pct = Math.floor(p.fraction * 100);
      if (pct !== last) process.stderr.write(`building the vector cells: ${p.stage} ${(last = pct)}%   \r`);
    });
    const seconds = (performance.now() - t) / 1000;
    const [status] = await repos.passageIndex.indexStatus();
    // Each passage's cell is found as it is written, once there are cells.
    const writesAfter = {
      one: await timedWrites(repos, opened.sqlite, workspaceId, pool, "after", 1),
      batch: await timedWrites(repos, opened.sqlite, workspaceId, pool, "afterb", 25),
    };
    return { seconds, cells: status.cells, writesBefore, writesAfter };
  } finally {
    opened.close();
  }
}

export async function benchSearch() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-search-"));
  try {
    let server = await startServer(dataDir, [], { NOTULA_EMBEDDINGS: "local" });
    const key = server.key;
    await stopServer(server.proc);
    process.stderr.write("embedding a pool of 2,000 sentences with the bundled model…\n");
    const pool = await embeddingPool(2000);
    const t0 = Date.now();
    const seeded = await seed(path.join(dataDir, "notula.db"), pool);
    process.stderr.write(
      `\nseeded ${NOTES.toLocaleString("en")} notes, ${seeded.vectors.toLocaleString("en")} passage vectors in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
    );

    process.stderr.write("\n");
    const built = await buildCells(path.join(dataDir, "notula.db"), seeded.workspaceId, pool);
    process.stderr.write(`\nbuilt ${built.cells.toLocaleString("en")} vector cells in ${built.seconds.toFixed(0)} s\n`);

    // In-process: the bare queries; the product's vector search against comparing every vector.
    const { openDatabase, createRepositories, buildVectorIndex, PLACE_AT } = await import("./.kit/kit.js");
    const opened = openDatabase(path.join(dataDir, "notula.db"), { migrate: false });
    const db = opened.sqlite;
    const repos = createRepositories(opened.db);
    const passages = repos.passages;
    const bareFts = db.prepare("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rank LIMIT 10");
    const like = db.prepare("SELECT DISTINCT note_id FROM transcript_segments WHERE text LIKE ? LIMIT 10");
    const bare = {
      rare: await timeIt(() => bareFts.all(`"${RARE}"*`)),
      common: await timeIt(() => bareFts.all('"budget"*')),
    };
    const likeRare = await timeIt(() => like.all(`%${RARE}%`), 5);
    // What a hybrid search asks the index for: 30 passages (a page of 10 notes, a few passages each).
    const K = 30;
    const queries = Array.from({ length: 50 }, () => passageVector(pool));
    let recall = 0;
    for (const v of queries) {
      const key = (h) => `${h.sourceId}:${h.timestampSec}`;
      const want = (await passages.nearestExact(seeded.workspaceId, v, 10, "use-lite-512")).map(key);
      const got = (await passages.nearest(seeded.workspaceId, v, 10, "use-lite-512")).map(key);
      recall += want.filter((id) => got.includes(id)).length / want.length;
    }
    recall /= queries.length;
    const exactT = await timeIt(
      (i) => passages.nearestExact(seeded.workspaceId, queries[i % queries.length], K, "use-lite-512"),
      10,
    );
    const approxT = await timeIt((i) =>
      passages.nearest(seeded.workspaceId, queries[i % queries.length], K, "use-lite-512"),
    );
    // Vectors written since the cells were made wait in cell 0, which every search reads
    // whole, until PLACE_AT have come: a search with the most that ever wait there, then
    // the build that places them.
    const waiting = Array.from({ length: PLACE_AT / 10 }, (_, i) => {
      const items = Array.from({ length: 10 }, (_, p) => ({ text: `waiting ${i}.${p}`, timestampSec: p * 40 }));
      return {
        source: "note",
        sourceId: `note_waiting${i}`,
        workspaceId: seeded.workspaceId,
        items,
        vectors: items.map(() => passageVector(pool)),
        model: "use-lite-512",
      };
    });
    await passages.replaceMany(waiting.slice(0, -1));
    await passages.replace(
      "note",
      "note_waiting_last",
      seeded.workspaceId,
      waiting.at(-1).items.slice(0, 9),
      waiting.at(-1).vectors.slice(0, 9),
      "use-lite-512",
    );
    const approxWaitingT = await timeIt((i) =>
      passages.nearest(seeded.workspaceId, queries[i % queries.length], K, "use-lite-512"),
    );
    await passages.replace(
      "note",
      "note_waiting_last",
      seeded.workspaceId,
      waiting.at(-1).items,
      waiting.at(-1).vectors,
      "use-lite-512",
    );
    const placeStart = performance.now();
    await buildVectorIndex(repos, Date.now, { workspaceId: seeded.workspaceId, dims: 512 });
    const placedPerSec = PLACE_AT / ((performance.now() - placeStart) / 1000);
    for (const w of waiting) await passages.remove("note", w.sourceId);
    await passages.remove("note", "note_waiting_last");
    opened.close();

    // Over HTTP, with everything the endpoint does (auth, filters, moments, shaping).
    server = await startServer(dataDir, [], { NOTULA_EMBEDDINGS: "local" });
    const get = async (q, mode) => {
      const res = await fetch(`${server.url}/v1/search?${new URLSearchParams({ q, mode, limit: "10" })}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
      return res.json();
    };
    const found = await get(RARE, "fulltext");
    if (!found.results.length || !found.results[0].matches[0]?.startTimestamp)
      throw new Error("the rare word was not found with its moment");
    const http = {
      rare: await timeIt(() => get(RARE, "fulltext")),
      common: await timeIt(() => get("budget", "fulltext")),
      hybrid: await timeIt((i) => get(`${COMMON[i % COMMON.length]} ${RARE}`, "hybrid")),
      // The same questions by meaning alone: what the words and their tiers add to a hybrid search.
      semantic: await timeIt((i) => get(`${COMMON[i % COMMON.length]} ${RARE}`, "semantic")),
    };
    const rss = rssMb(server.proc.pid);
    await stopServer(server.proc);

    const ms = (x) => x.toFixed(1).padStart(7);
    console.log(
      `\nsearch at ${NOTES.toLocaleString("en")} notes of ${WORDS.toLocaleString("en")} words (${seeded.vectors.toLocaleString("en")} passage vectors)\n`,
    );
    console.log("| what | p50 ms | p99 ms | baseline (same run) | p50 ratio |\n|---|---:|---:|---|---:|");
    const row = (name, r, base, baseName) =>
      console.log(
        `| ${name} | ${ms(r.p50)} | ${ms(r.p99)} | ${baseName}: ${base.p50.toFixed(1)} ms | ${(r.p50 / base.p50).toFixed(2)} |`,
      );
    row("GET /v1/search fulltext, rare word", http.rare, bare.rare, "bare FTS5 query");
    row("GET /v1/search fulltext, common word", http.common, bare.common, "bare FTS5 query");
    row("GET /v1/search fulltext, rare word", http.rare, likeRare, "LIKE scan of transcripts");
    row(`vector search, nearest cells + exact re-rank (k=${K})`, approxT, exactT, "comparing every vector");
    row(
      `vector search, the same with ${(PLACE_AT - 1).toLocaleString("en")} new passages waiting in cell 0`,
      approxWaitingT,
      exactT,
      "comparing every vector",
    );
    row("GET /v1/search hybrid (query embedded)", http.hybrid, exactT, "exact vector scan alone");
    row("GET /v1/search hybrid (query embedded)", http.hybrid, http.semantic, "the same questions by meaning alone");
    console.log(`\nrecall@10 of the vector search against the exact scan: ${recall.toFixed(3)}`);
    const rate = (x) => `${Math.round(x).toLocaleString("en")} passages/s`;
    const writes = (w) => `${rate(w.perSec)} (${(w.perSec / w.bare).toFixed(2)} of the bare rows' ${rate(w.bare)})`;
    console.log(
      `vector writes, durable, a note (10 passages) per transaction (the server's indexer): ${writes(built.writesBefore.one)} before the cells, ${writes(built.writesAfter.one)} once there are cells`,
    );
    console.log(
      `vector writes, durable, 25 notes per transaction (notula admin reindex): ${writes(built.writesBefore.batch)} before the cells, ${writes(built.writesAfter.batch)} once there are cells`,
    );
    console.log(
      "  (baseline: the same rows, text and vector, written bare into a table of their own with the same commits, in turns with the product's writes)",
    );
    console.log(
      `placing the passages waiting in cell 0 in their cells (a build, in the background): ${rate(placedPerSec)}`,
    );
    console.log(`vector writes while seeding (1,000 notes per transaction, not synced): ${rate(seeded.vectorsPerSec)}`);
    console.log(
      `building the vector cells (${built.cells.toLocaleString("en")} cells over ${seeded.vectors.toLocaleString("en")} passages, in the background on a server): ${built.seconds.toFixed(0)} s`,
    );
    console.log(`server resident memory after the searches: ${rss.toFixed(0)} MB`);
  } finally {
    if (process.env.BENCH_KEEP) console.error(`kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
