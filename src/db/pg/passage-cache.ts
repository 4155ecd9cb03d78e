// The passages a meaning-based search compares exactly, kept in this process's memory
// by id. Without pgvector a search screens a few hundred passages by their bits and
// compares those exactly; read from PostgreSQL each time, their vectors were some
// 800 kB a search as the driver's hex text, which the server spent about 1.5 ms of its
// thread decoding (and PostgreSQL as long encoding). A passage is never changed once
// written, only removed (a note's new passages get new ids), so what is kept is right
// on every replica for as long as it is kept: a removed passage is no longer screened,
// and so never asked for again.
import { LRUCache } from "lru-cache";
import type { PassageHit } from "../stores/passage-store.js";

export interface KnownPassage {
  vector: Float32Array;
  source: PassageHit["source"];
  sourceId: string;
  text: string;
  timestampSec: number | null;
}

/** Memory for the passages kept, by default: some 13,000 of 512 dimensions with their text. */
export const PASSAGE_CACHE_BYTES = 32 * 1024 * 1024;

export function passageCache(maxBytes = PASSAGE_CACHE_BYTES) {
  return new LRUCache<string, KnownPassage>({
    maxSize: maxBytes,
    // Two bytes a character of text, and what an entry costs besides.
    sizeCalculation: (p) => p.vector.byteLength + 2 * (p.text.length + p.sourceId.length) + 96,
  });
}

export type PassageCache = ReturnType<typeof passageCache>;
