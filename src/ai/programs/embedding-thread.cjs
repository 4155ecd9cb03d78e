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
/** Texts per call of the model at most: small batches keep its working memory small. */
const MAX_BATCH = 16;
/**
 * What one more call of the model costs, in characters of padding: the model pads every
 * text of a call to the longest one's length, and its time grows with that length
 * (measured here: about 34 ms a call plus 0.13 ms a character of each text as padded).
 */
const CALL_COST_CHARS = 256;

/**
 * The texts' indices in batches for the model: shortest first, and a longer text joins
 * the batch only while padding the batch's texts to it costs less than a call of its
 * own. (A batch of short sentences with one 600-character passage cost 2.5 times the
 * two apart.)
 * @param {string[]} texts
 * @returns {number[][]}
 */
function batches(texts) {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
  /** @type {number[][]} */
  const out = [];
  let longest = 0;
  for (const k of order) {
    const last = out[out.length - 1];
    const length = texts[k].length;
    if (last && last.length < MAX_BATCH && last.length * (length - longest) <= CALL_COST_CHARS) last.push(k);
    else out.push([k]);
    longest = length;
  }
  return out;
}

let model;
let queue = Promise.resolve();
parentPort.on("message", ({ id, texts }) => {
  queue = queue.then(async () => {
    try {
      model ??= require(workerData.embeddings).initModel(require(workerData.model).modelSource);
      const m = await model;
      /** @type {Float32Array<ArrayBuffer>[]} */
      const vectors = new Array(texts.length);
      for (const part of batches(texts)) {
        const out = await m.embed(part.map((k) => texts[k]));
        part.forEach((k, j) => (vectors[k] = Float32Array.from(out[j])));
      }
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
