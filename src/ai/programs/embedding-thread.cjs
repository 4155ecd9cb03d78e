// @ts-check
// The bundled sentence encoder's thread (ai/embeddings/model-thread.ts): loads the
// model once and embeds what it is sent, one batch at a time. The packages it loads are
// resolved by the caller (`workerData`), from where notula is installed rather than from
// the working directory.
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
      parentPort.postMessage(
        { id, vectors },
        vectors.map((v) => v.buffer),
      );
    } catch (err) {
      model = undefined;
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
});
