// notula admin reindex
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { Runtime } from "../../../runtime/index.js";
import { dataDirOption, say, type AdminDeps, type DataDirFlags } from "./deps.js";

export const define = (admin: Command) =>
  dataDirOption(
    admin
      .command("reindex")
      .description("Rebuild the meaning-based search index: embed every note and article again, with a progress bar")
      .option("--missing", "only what has no passages from the configured embedding model (after changing the model)")
      .option("--cells-only", "skip embedding; only build the vector cells of workspaces that are due them"),
  ).addHelpText(
    "after",
    "\nRuns beside a running server: each note is replaced in its own short transaction, so requests go on.\n" +
      "Then builds the vector cells of every workspace with enough passages (SQLite, and PostgreSQL without pgvector;\n" +
      "the server also does it in the background as notes are indexed), a page at a time, with a progress bar.\n\n" +
      "Examples:\n  notula admin reindex --data-dir ./notula-data --missing\n  notula admin reindex --data-dir ./notula-data --cells-only",
  );

export interface Input extends DataDirFlags {
  missing?: boolean;
  cellsOnly?: boolean;
}

interface BuiltCells {
  workspaceId: string;
  dims: number;
  passages: number;
  cells: number;
}

export interface Result {
  indexed: number;
  skipped: number;
  model: string;
  cells: BuiltCells[];
}

/** Builds the vector cells of every workspace due them, each with a progress bar. */
async function buildCells(rt: Runtime): Promise<BuiltCells[]> {
  const { renderCount } = await import("../../lib/progress.js");
  const { buildVectorIndex } = await import("../../../pipeline/vector-index.js");
  const built: BuiltCells[] = [];
  for (const target of await rt.repos.passageIndex.buildsDue()) {
    const passages = await rt.repos.passageIndex.passageCount(target);
    const bar = renderCount(
      `Building vector cells for ${target.workspaceId} (${passages.toLocaleString("en")} passages)`,
      100,
    );
    let ran: boolean;
    try {
      ran = await buildVectorIndex(rt.repos, rt.now, target, (p) => bar.update(Math.floor(p.fraction * 100)));
    } finally {
      bar.done();
    }
    if (!ran)
      process.stderr.write(`The vector cells of ${target.workspaceId} are being built by the server already.\n`);
    const status = (await rt.repos.passageIndex.indexStatus()).find(
      (s) => s.workspaceId === target.workspaceId && s.dims === target.dims,
    );
    if (ran && status)
      built.push({
        workspaceId: target.workspaceId,
        dims: target.dims,
        passages: status.passages,
        cells: status.cells,
      });
  }
  return built;
}

export const run = (f: Input, deps: AdminDeps): Promise<Result> =>
  deps.withRuntime(f.dataDir, async (rt) => {
    const { loadConfig } = await import("../../../config/load.js");
    const { selectEmbedder } = await import("../../../ai/select.js");
    const { indexPassagesInBatches } = await import("../../../pipeline/index-passages.js");
    const { renderCount } = await import("../../lib/progress.js");
    const { createNet } = await import("../../../net/outbound.js");
    const embedder = selectEmbedder(
      loadConfig({ dataDir: f.dataDir }).embeddings,
      createNet().for("embeddings", "operator"),
    );
    if (!embedder)
      throw new CliError(
        "Meaning-based search is off (NOTULA_EMBEDDINGS=none): there is no index to build.",
        EXIT.usage,
      );
    if (f.cellsOnly) return { indexed: 0, skipped: 0, model: embedder.name, cells: await buildCells(rt) };
    const work: ["note" | "article", string][] = [];
    for (let after = 0; ;) {
      const page = await rt.repos.notes.idsAfter(after, 1000);
      if (!page.length) break;
      for (const n of page) work.push(["note", n.id]);
      after = page[page.length - 1].seq;
    }
    for (const id of await rt.repos.knowledge.allIds()) work.push(["article", id]);
    const progress = renderCount(`Indexing with ${embedder.name}`, work.length);
    let skipped = 0;
    const todo: typeof work = [];
    for (const item of work) {
      if (f.missing && (await rt.repos.passages.modelOf(...item)) === embedder.name) skipped++;
      else todo.push(item);
    }
    try {
      progress.update(skipped);
      // Written in batches: a transaction per 25 notes, not per note.
      await indexPassagesInBatches(rt.repos, embedder, todo, (done) => progress.update(skipped + done));
    } finally {
      progress.done();
    }
    return { indexed: todo.length, skipped, model: embedder.name, cells: await buildCells(rt) };
  });

export function render(r: Result, f: Input, deps: AdminDeps) {
  const cells = r.cells.map((c) => `Built ${c.cells} vector cells over ${c.passages} passages of ${c.workspaceId}.`);
  if (f.cellsOnly) return say(deps, cells.length ? cells.join("\n") : "No workspace is due new vector cells.");
  say(
    deps,
    [
      `Indexed ${r.indexed} notes and articles with ${r.model}${r.skipped ? `; ${r.skipped} were up to date` : ""}.`,
      ...cells,
    ].join("\n"),
  );
}
