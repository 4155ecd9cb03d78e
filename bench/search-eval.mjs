// Search quality on the labelled set of search-corpus.mjs (110 meetings, 77 queries of
// which 17 have no right answer), for every mode of GET /v1/search on a real server
// with the bundled sentence-embedding model. Reports, per mode and per kind of query:
//   precision@5  of the first five results (fewer when fewer come back), the share that
//                answer the query; an answerable query answered with nothing counts 0;
//   recall@10    the share of the meetings that answer it found in the first ten;
//   nDCG@10      the same with position: right answers first score higher;
//   no-answer    the share of queries with no right answer that were answered with nothing.
// `npm run bench -- search-quality --floors 0.3,0.4,0.5,0.6` also runs the meaning modes
// at other similarity floors, which is how the default floor was chosen.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { api, startServer, stopServer } from "./lib.mjs";
import { answers, buildCorpus, QUERIES, writeCorpus } from "./search-corpus.mjs";

const MODES = ["fulltext", "semantic", "hybrid"];

/** Creates the corpus's notes and waits until every one is embedded (indexing runs in the background). */
async function load(server, dataDir, meetings) {
  const ids = await writeCorpus(server, meetings);
  const db = new Database(path.join(dataDir, "notula.db"), { readonly: true });
  try {
    for (let i = 0; i < 1200; i++) {
      const { n } = db.prepare("SELECT count(DISTINCT source_id) AS n FROM passages WHERE source = 'note'").get();
      if (n >= Object.keys(meetings).length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    db.close();
  }
  return ids;
}

const log2 = (n) => Math.log(n) / Math.log(2);

/** The four measures over the queries, for one mode. */
async function measure(server, ids, meetings, mode, queries = QUERIES) {
  const byKind = {};
  const answeredWrongly = [];
  const add = (kind, k, v) => {
    byKind[kind] ??= {};
    (byKind[kind][k] ??= []).push(v);
  };
  for (const [q, kind, target] of queries) {
    const r = await api(server, "GET", `/v1/search?${new URLSearchParams({ q, mode, limit: "10" })}`);
    const got = r.results.map((x) => x.note.id);
    const want = new Set(answers(meetings, target).map((k) => ids[k]));
    for (const k of kind === "none" ? ["none", "all"] : [kind, "answerable", "all"]) {
      if (!want.size) {
        add(k, "noAnswer", got.length === 0 ? 1 : 0);
        if (got.length && k === "all") answeredWrongly.push(`${q} (${r.results.map((x) => x.foundBy).join(", ")})`);
        continue;
      }
      const top5 = got.slice(0, 5);
      add(k, "p5", top5.length ? top5.filter((id) => want.has(id)).length / top5.length : 0);
      add(k, "r10", got.filter((id) => want.has(id)).length / want.size);
      const dcg = got.reduce((s, id, i) => s + (want.has(id) ? 1 / log2(i + 2) : 0), 0);
      const ideal = [...Array(Math.min(10, want.size)).keys()].reduce((s, i) => s + 1 / log2(i + 2), 0);
      add(k, "ndcg10", dcg / ideal);
    }
  }
  byKind.all.answeredWrongly = answeredWrongly;
  const mean = (xs) => (xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return Object.fromEntries(
    Object.entries(byKind).map(([kind, m]) => [
      kind,
      {
        precisionAt5: mean(m.p5),
        recallAt10: mean(m.r10),
        ndcgAt10: mean(m.ndcg10),
        noAnswerEmpty: mean(m.noAnswer),
        queries: (m.p5?.length ?? 0) + (m.noAnswer?.length ?? 0),
        ...(m.answeredWrongly ? { answeredWrongly: m.answeredWrongly } : {}),
      },
    ]),
  );
}

const f2 = (x) => (x === null ? "–" : x.toFixed(2));

function table(rows) {
  console.log("| mode | queries | precision@5 | recall@10 | nDCG@10 | no-answer answered with nothing |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const [label, r] of rows)
    console.log(
      `| ${label} | ${r.queries} | ${f2(r.precisionAt5)} | ${f2(r.recallAt10)} | ${f2(r.ndcgAt10)} | ${f2(r.noAnswerEmpty)} |`,
    );
}

export async function benchSearchEval(argv = process.argv.slice(2)) {
  const at = argv.indexOf("--floors");
  const floors = at >= 0 ? argv[at + 1].split(",").map(Number) : [];
  const meetings = buildCorpus();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-eval-"));
  let server = await startServer(dataDir, [], { NOTULA_EMBEDDINGS: "local" });
  try {
    const ids = await load(server, dataDir, meetings);
    const counts = QUERIES.reduce((c, [, kind]) => ({ ...c, [kind]: (c[kind] ?? 0) + 1 }), {});
    console.log(
      `\nsearch quality: ${Object.keys(meetings).length} meetings, ${QUERIES.length} labelled queries (${Object.entries(
        counts,
      )
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")}), at the model's default similarity floor\n`,
    );
    const result = {};
    for (const mode of MODES) result[mode] = await measure(server, ids, meetings, mode);
    table(MODES.map((m) => [m, result[m].all]));
    for (const mode of MODES)
      if (result[mode].all.answeredWrongly.length)
        console.log(
          `\n${mode}: queries with no right answer that got results: ${result[mode].all.answeredWrongly.join("; ")}`,
        );
    console.log("\nby kind of query (hybrid):\n");
    table(Object.entries(result.hybrid).filter(([k]) => k !== "all"));
    for (const floor of floors) {
      await stopServer(server.proc);
      // The key is printed at the first start only.
      const { key } = server;
      server = {
        ...(await startServer(dataDir, [], {
          NOTULA_EMBEDDINGS: "local",
          NOTULA_SEARCH_MIN_SIMILARITY: String(floor),
        })),
        key,
      };
      console.log(`\nat similarity floor ${floor}:\n`);
      const rows = [];
      for (const mode of ["semantic", "hybrid"]) {
        const r = await measure(server, ids, meetings, mode);
        rows.push([`${mode} (all)`, r.all], [`${mode} (meaning queries)`, r.meaning], [`${mode} (no answer)`, r.none]);
      }
      table(rows);
    }
    return result;
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
