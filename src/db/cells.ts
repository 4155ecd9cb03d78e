// The cells of a vector index: centroids of k-means over a workspace's passage vectors
// (spherical: unit vectors, compared by dot product). A passage belongs to the cell of
// its nearest centroid; a search reads the passages of the cells nearest its query.
//
// Comparing a vector with every centroid costs cells × dimensions multiplications
// (600,000 at 1,225 cells of 512): fine once per search, too slow once per passage
// written. So a passage's cell is found among a shortlist: the centroids whose sign
// bits are nearest its own by Hamming distance (popcounts), which holds the nearest
// centroid for all but a few passages in a thousand, then compared exactly.
/** Passages of one size in a workspace from which they are partitioned into cells. */
export const INDEX_AT = 20_000;
/** Cells are retrained when the passages have grown this many times past what they were trained on. */
export const REBUILD_GROWTH = 4;
/**
 * Vectors written since the cells were made wait in cell 0 (which every search reads
 * whole) until this many have come, and a build then places them in their cells
 * together. Placing each as it is written made a note's ten passages dirty ten cells'
 * pages on every commit: twice the time of writing them to one.
 */
export const PLACE_AT = 1_000;
/** About √n cells of about √n passages each. */
export const cellsFor = (passages: number) => Math.min(4096, Math.max(16, Math.round(Math.sqrt(passages))));

export interface CellSet {
  /** Cell ids, in the order of the centroids. */
  ids: number[];
  dims: number;
  /** The centroids, one after another. */
  floats: Float32Array;
  /** Their sign bits, `words` 32-bit words each. */
  signs: Uint32Array;
  words: number;
}

const SHORTLIST = 16;

export function signsOf(v: Float32Array, out = new Uint32Array(Math.ceil(v.length / 32))): Uint32Array {
  out.fill(0);
  for (let j = 0; j < v.length; j++) if (v[j] > 0) out[j >> 5] |= 1 << (j & 31);
  return out;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

function dotAt(floats: Float32Array, at: number, v: Float32Array): number {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += floats[at + j] * v[j];
  return s;
}

export function cellSet(ids: number[], centroids: Float32Array[]): CellSet {
  const dims = centroids[0]?.length ?? 0;
  const words = Math.ceil(dims / 32);
  const floats = new Float32Array(ids.length * dims);
  const signs = new Uint32Array(ids.length * words);
  centroids.forEach((c, i) => {
    floats.set(c, i * dims);
    signs.set(signsOf(c), i * words);
  });
  return { ids, dims, floats, signs, words };
}

/** The index (into the set) of the nearest centroid, from the shortlist by sign bits. */
export function nearestIndex(set: CellSet, v: Float32Array): number {
  const n = set.ids.length;
  if (n <= SHORTLIST) return topIndexes(set, v, 1)[0];
  const mine = signsOf(v);
  // The SHORTLIST smallest Hamming distances, kept sorted (insertion into a short list).
  const dist = new Int32Array(SHORTLIST).fill(0x7fffffff);
  const which = new Int32Array(SHORTLIST).fill(-1);
  for (let c = 0; c < n; c++) {
    let h = 0;
    const base = c * set.words;
    for (let w = 0; w < set.words; w++) h += popcount(set.signs[base + w] ^ mine[w]);
    if (h >= dist[SHORTLIST - 1]) continue;
    let i = SHORTLIST - 1;
    while (i > 0 && dist[i - 1] > h) {
      dist[i] = dist[i - 1];
      which[i] = which[i - 1];
      i--;
    }
    dist[i] = h;
    which[i] = c;
  }
  let best = which[0];
  let bestDot = -Infinity;
  for (const c of which) {
    if (c < 0) continue;
    const d = dotAt(set.floats, c * set.dims, v);
    if (d > bestDot) {
      bestDot = d;
      best = c;
    }
  }
  return best;
}

/**
 * The indexes (into the set) of the nearest centroids, comparing every one, nearest
 * first: at least `count`, and also (up to `max`) every one whose similarity is within
 * `margin` of the nearest's. A query near none of the cells (about something rare in
 * the workspace) has many centroids about as near as the nearest, and its answer may
 * be in any of them: the margin widens the search for it, and only for it.
 */
export function topIndexes(set: CellSet, v: Float32Array, count: number, margin = 0, max = count): number[] {
  const scored = set.ids.map((_, c) => [c, dotAt(set.floats, c * set.dims, v)] as const);
  scored.sort((a, b) => b[1] - a[1]);
  let n = Math.min(count, scored.length);
  const floor = (scored[0]?.[1] ?? 0) - margin;
  while (n < Math.min(max, scored.length) && scored[n][1] >= floor) n++;
  return scored.slice(0, n).map(([c]) => c);
}

/**
 * The share of a workspace's cells a search reads (at least MIN_PROBES). Set by the
 * recall it gives against comparing every vector (docs/mcp.md, on search by meaning at scale).
 */
export const PROBE_SHARE = 0.15;
const MIN_PROBES = 8;
export const probesFor = (cells: number, share = PROBE_SHARE) =>
  Math.min(cells, Math.max(MIN_PROBES, Math.ceil(cells * share)));
/**
 * Cells whose centroid is this close (in cosine similarity) to the query as the
 * nearest one's are read too, up to half of them (or MAX_PROBES_ALWAYS, where that is
 * more): see topIndexes.
 */
const PROBE_MARGIN = 0.1;
const MAX_PROBE_SHARE = 0.5;
const MAX_PROBES_ALWAYS = 32;

export interface ProbeOptions {
  probeShare?: number;
  probeMargin?: number;
}

/**
 * The cells (their ids) a search for `vector` reads, nearest first: the probe share of
 * an index of `cells` cells, widened by the margin for a query near none of them.
 */
export function cellsToRead(set: CellSet, vector: Float32Array, cells: number, opts: ProbeOptions = {}): number[] {
  return topIndexes(
    set,
    vector,
    probesFor(cells, opts.probeShare),
    opts.probeMargin ?? PROBE_MARGIN,
    Math.max(MAX_PROBES_ALWAYS, Math.ceil(set.ids.length * MAX_PROBE_SHARE)),
  ).map((i) => set.ids[i]);
}

function normalized(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

/** Deterministic, so that a training can be reproduced (and tested). */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export interface TrainOptions {
  iterations?: number;
  /** Stop once fewer than this share of samples changed cell in an iteration. */
  settled?: number;
  seed?: number;
  /** Called after each iteration, so that a long training can report progress and yield. */
  onIteration?: (done: number, of: number) => void | Promise<void>;
  /** Called every few thousand samples within an iteration: a server yields to its requests there. */
  pause?: () => Promise<void>;
}

/** Samples assigned between pauses: a few milliseconds of work. */
const PAUSE_EVERY = 500;

/** Trains `count` centroids on `samples` (spherical k-means, each sample made a unit vector). */
export async function trainCells(
  samples: Float32Array[],
  count: number,
  opts: TrainOptions = {},
): Promise<Float32Array[]> {
  if (!samples.length) throw new Error("No vectors to train on.");
  const units = samples.map(normalized);
  const dims = units[0].length;
  const k = Math.max(1, Math.min(count, units.length));
  const iterations = opts.iterations ?? 10;
  const rand = random(opts.seed ?? 0x9e3779b9);
  // Start from k distinct samples (a partial Fisher–Yates shuffle).
  const order = units.map((_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rand() * (order.length - i));
    [order[i], order[j]] = [order[j], order[i]];
  }
  let centroids: Float32Array[] = order.slice(0, k).map((i) => Float32Array.from(units[i]));
  const cellOf = new Int32Array(units.length).fill(-1);
  for (let it = 0; it < iterations; it++) {
    const set = cellSet(
      centroids.map((_, i) => i),
      centroids,
    );
    const sums = new Float32Array(k * dims);
    const sizes = new Int32Array(k);
    let changed = 0;
    for (let i = 0; i < units.length; i++) {
      const v = units[i];
      const c = nearestIndex(set, v);
      if (c !== cellOf[i]) {
        changed++;
        cellOf[i] = c;
      }
      sizes[c]++;
      for (let j = 0; j < dims; j++) sums[c * dims + j] += v[j];
      if (opts.pause && i % PAUSE_EVERY === PAUSE_EVERY - 1) await opts.pause();
    }
    // An empty cell starts again from a random sample.
    centroids = centroids.map((_, c) =>
      sizes[c]
        ? normalized(sums.subarray(c * dims, (c + 1) * dims))
        : Float32Array.from(units[Math.floor(rand() * units.length)]),
    );
    await opts.onIteration?.(it + 1, iterations);
    if (changed < units.length * (opts.settled ?? 0.005)) break;
  }
  return centroids;
}
