// Keeps the meaning-based search index in step: a note or article is cut into
// passages, embedded, and its old passages replaced, as a job after each change.
import { z } from "zod";
import type { Embedder } from "../ai/embeddings/embedder.js";
import { packText } from "../ai/pack-text.js";
import { withoutCitations } from "../shared/note-links.js";
import type { Repositories } from "../db/repos/index.js";
import type { PassageInput, PassageSet } from "../db/stores/passage-store.js";
import { defineJob, type Jobs } from "../jobs/job.js";
import { queueDueBuilds } from "./vector-index.js";

const MAX_CHARS = 600;
/**
 * Transcript passages are shorter: a meeting moves between topics every few sentences,
 * and a sentence encoder's vector of a long window is the average of all of them, close
 * to none (bench/search-eval.mjs measured recall of questions asked in other words).
 */
const TRANSCRIPT_MAX_CHARS = 280;

const payload = z.object({ source: z.enum(["note", "article"]), id: z.string() });

declare module "../jobs/job.js" {
  interface JobPayloads {
    "index-passages": z.infer<typeof payload>;
  }
}

/** Splits text into passages of at most MAX_CHARS, at paragraph, then sentence, boundaries. */
export function chunkText(text: string): string[] {
  const pieces = text
    .split(/\n{2,}|(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return packText(pieces, MAX_CHARS, " ");
}

export function notePassages(
  note: { title: string; summary: string; userWrittenNote: string; enhancedNote: string },
  segments: { text: string; startSec: number }[],
): PassageInput[] {
  const summary = withoutCitations(note.summary);
  const out: PassageInput[] = [{ text: [note.title, summary].filter(Boolean).join(". "), timestampSec: null }];
  for (const t of [...chunkText(note.userWrittenNote), ...chunkText(withoutCitations(note.enhancedNote))])
    out.push({ text: t, timestampSec: null });
  let window: { text: string; start: number } | null = null;
  for (const s of segments) {
    if (window && window.text.length + s.text.length + 1 > TRANSCRIPT_MAX_CHARS) {
      out.push({ text: window.text, timestampSec: window.start });
      window = null;
    }
    window = window ? { text: `${window.text} ${s.text}`, start: window.start } : { text: s.text, start: s.startSec };
  }
  if (window) out.push({ text: window.text, timestampSec: window.start });
  return out.filter((p) => p.text.trim());
}

/**
 * One note's or article's passages, embedded, ready to be written; null once it is
 * gone (its passages are then to be removed).
 */
export async function preparePassages(
  repos: Repositories,
  embedder: Embedder,
  source: "note" | "article",
  id: string,
): Promise<PassageSet | null> {
  if (source === "note") {
    // The note, its transcript and its speakers' names in one read.
    const found = await repos.notes.getWithPartsForProcessing(id);
    if (!found) return null;
    const { row: note, speakerNames } = found;
    const names = new Map(speakerNames.map((n) => [n.label, n.name]));
    const segments = found.segments.map((s) => ({ ...s, speaker: names.get(s.speaker) ?? s.speaker }));
    const items = notePassages(note, segments);
    return {
      source,
      sourceId: id,
      workspaceId: note.workspaceId,
      items,
      vectors: await embedder.embed(
        items.map((p) => p.text),
        { background: true },
      ),
      model: embedder.name,
    };
  }
  const article = await repos.knowledge.getById(id);
  if (!article) return null;
  const items = [article.title, ...chunkText(article.content)].map((text) => ({ text, timestampSec: null }));
  return {
    source,
    sourceId: id,
    workspaceId: article.workspaceId,
    items,
    vectors: await embedder.embed(
      items.map((p) => p.text),
      { background: true },
    ),
    model: embedder.name,
  };
}

/**
 * Cuts one note or article into passages, embeds them and replaces its old ones (or
 * removes them, once it is gone). Returns the workspace indexed, if any.
 */
export async function indexPassages(
  repos: Repositories,
  embedder: Embedder,
  source: "note" | "article",
  id: string,
): Promise<string | null> {
  const set = await preparePassages(repos, embedder, source, id);
  if (!set) return (await repos.passages.remove(source, id), null);
  await repos.passages.replace(set.source, set.sourceId, set.workspaceId, set.items, set.vectors, set.model);
  return set.workspaceId;
}

/**
 * The same for many (`notula admin reindex`): embedded one by one, written in batches,
 * a transaction (and one sync to disk) per batch rather than per note.
 */
export async function indexPassagesInBatches(
  repos: Repositories,
  embedder: Embedder,
  work: ["note" | "article", string][],
  onDone: (done: number) => void,
  batchSize = 25,
): Promise<void> {
  let batch: PassageSet[] = [];
  const flush = async () => {
    if (batch.length) await repos.passages.replaceMany(batch);
    batch = [];
  };
  for (const [i, [source, id]] of work.entries()) {
    const set = await preparePassages(repos, embedder, source, id);
    if (set) batch.push(set);
    else await repos.passages.remove(source, id);
    if (batch.length >= batchSize) await flush();
    onDone(i + 1);
  }
  await flush();
}

/** Indexes a note or article for search by meaning (a server without an embedder switches it off). */
export const indexPassagesJob = defineJob({
  kind: "index-passages",
  payload,
  key: (p) => `index:${p.source}:${p.id}`,
  coalesce: "queued",
  worker: ({ repos, embedder, jobs }: { repos: Repositories; embedder: Embedder | null; jobs: Jobs }) => ({
    // Several at a time, so that their passages reach the model as one batch (its cost
    // per text falls with the batch: model-thread.ts); the model's one thread still
    // bounds the work, and the reads between them are short.
    concurrency: 4,
    leaseMs: 60_000,
    timeoutMs: 10 * 60_000,
    maxAttempts: 3,
    backoffMs: (attempt) => 5_000 * attempt,
    handle: async ({ source, id }) => {
      if (!embedder) return;
      const workspaceId = await indexPassages(repos, embedder, source, id);
      // Enough passages now to partition them into cells (or to retrain the cells).
      if (workspaceId) await queueDueBuilds(repos, jobs, workspaceId);
    },
  }),
});
