// Vectors as PostgreSQL keeps them without pgvector (passage_vectors.embedding): float32,
// little-endian, 4 bytes a dimension. The server compares them itself: PostgreSQL has
// no arithmetic on arrays short of unnesting them, some 100 microseconds a vector.
import os from "node:os";

const littleEndian = os.endianness() === "LE";

export function vectorBytes(vector: ArrayLike<number>): Buffer {
  if (littleEndian && vector instanceof Float32Array)
    return Buffer.from(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i], i * 4);
  return bytes;
}

export function bytesVector(bytes: Buffer): Float32Array {
  if (littleEndian) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}

/** A vector in pgvector's text form, its input format. */
export const vectorText = (vector: ArrayLike<number>) => `[${Array.from(vector).join(",")}]`;

/** 1 − cosine similarity, as pgvector's `<=>` and sqlite-vec's vec_distance_cosine give it. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  const norms = Math.sqrt(aa) * Math.sqrt(bb);
  return norms ? 1 - dot / norms : 1;
}
