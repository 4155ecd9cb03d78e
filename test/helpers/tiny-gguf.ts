// A tiny llama-architecture language model in GGUF, written here so that the local
// model's real code path (node-llama-cpp loading a GGUF, a context, a chat, a stream)
// runs in the tests without downloading a model. It is built to write one text, a
// meeting note, whatever it is asked: its attention and feed-forward weights are zero,
// so each next token depends on the last one alone, and its output weights chain the
// note's pieces one after another, from any prompt's last token to the end-of-text.
import fs from "node:fs";

const GGUF_VERSION = 3;
const ALIGN = 32;
enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  STRING = 8,
  ARRAY = 9,
}

type Value =
  | { t: T.U32 | T.I32 | T.F32; v: number }
  | { t: T.STRING; v: string }
  | { t: T.ARRAY; of: T.STRING; v: string[] }
  | { t: T.ARRAY; of: T.F32 | T.I32; v: number[] };

class Writer {
  private chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer) {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  i32(n: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  u64(n: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  f32(n: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.push(b);
  }
  pad() {
    const rest = this.size % ALIGN;
    if (rest) this.push(Buffer.alloc(ALIGN - rest));
  }
  value(val: Value) {
    this.u32(val.t);
    if (val.t === T.STRING) this.str(val.v);
    else if (val.t === T.ARRAY) {
      this.u32(val.of);
      this.u64(val.v.length);
      for (const x of val.v)
        if (val.of === T.STRING) this.str(x as string);
        else if (val.of === T.F32) this.f32(x as number);
        else this.i32(x as number);
    } else if (val.t === T.F32) this.f32(val.v);
    else if (val.t === T.I32) this.i32(val.v);
    else this.u32(val.v);
  }
  buffer() {
    return Buffer.concat(this.chunks);
  }
}

/** What the model writes: the general template's sections, with a citation. */
export const TINY_SCRIPT = [
  "##▁Key▁points",
  "\n-▁The▁team▁agreed▁the▁Lisbon▁office▁budget▁[1].",
  "\n##▁Decisions",
  "\n-▁Ana▁will▁send▁the▁budget▁by▁Friday▁[1].",
  "\n##▁Action▁items",
  "\n-▁[▁]▁Send▁the▁budget▁(owner:▁Ana)",
];
/** The text the model writes, as a reader sees it. */
export const TINY_TEXT = TINY_SCRIPT.join("").replace(/▁/g, " ");

/** Writes the model to `file` (about 1 MB) and returns its path. */
export function writeTinyGguf(file: string, o: { contextLength?: number; script?: string[] } = {}): string {
  const script = o.script ?? TINY_SCRIPT;
  // SentencePiece-style vocabulary: the three specials, every byte (so any text has
  // tokens), and the script's pieces. Each piece is longer than one character and no
  // shorter piece leads to it, so the tokenizer never makes one out of a prompt.
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  const first = tokens.length;
  for (const piece of script) {
    tokens.push(piece);
    types.push(1);
  }
  const nVocab = tokens.length;
  const scores = tokens.map(() => 0);
  const nHead = 4;
  const nEmbd = Math.ceil(nVocab / 8) * 8;
  const nFf = 32;
  const nLayer = 1;
  const zeros = (n: number) => new Float32Array(n);
  const ones = (n: number) => new Float32Array(n).fill(1);
  // Each token its own direction.
  const embd = zeros(nEmbd * nVocab);
  for (let v = 0; v < nVocab; v++) embd[v * nEmbd + v] = 1;
  // The next token after v: the script's next piece, the end after its last, its first after anything else.
  const next = (v: number) => (v >= first && v < nVocab - 1 ? v + 1 : v === nVocab - 1 ? 2 : first);
  const output = zeros(nEmbd * nVocab);
  for (let v = 0; v < nVocab; v++) output[next(v) * nEmbd + v] = 2;

  const tensors: { name: string; dims: number[]; data: Float32Array }[] = [
    { name: "token_embd.weight", dims: [nEmbd, nVocab], data: embd },
    { name: "output_norm.weight", dims: [nEmbd], data: ones(nEmbd) },
    { name: "output.weight", dims: [nEmbd, nVocab], data: output },
  ];
  for (let i = 0; i < nLayer; i++)
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [nEmbd], data: ones(nEmbd) },
      { name: `blk.${i}.attn_q.weight`, dims: [nEmbd, nEmbd], data: zeros(nEmbd * nEmbd) },
      { name: `blk.${i}.attn_k.weight`, dims: [nEmbd, nEmbd], data: zeros(nEmbd * nEmbd) },
      { name: `blk.${i}.attn_v.weight`, dims: [nEmbd, nEmbd], data: zeros(nEmbd * nEmbd) },
      { name: `blk.${i}.attn_output.weight`, dims: [nEmbd, nEmbd], data: zeros(nEmbd * nEmbd) },
      { name: `blk.${i}.ffn_norm.weight`, dims: [nEmbd], data: ones(nEmbd) },
      { name: `blk.${i}.ffn_gate.weight`, dims: [nEmbd, nFf], data: zeros(nEmbd * nFf) },
      { name: `blk.${i}.ffn_up.weight`, dims: [nEmbd, nFf], data: zeros(nEmbd * nFf) },
      { name: `blk.${i}.ffn_down.weight`, dims: [nFf, nEmbd], data: zeros(nEmbd * nFf) },
    );
  const meta: [string, Value][] = [
    ["general.architecture", { t: T.STRING, v: "llama" }],
    ["general.name", { t: T.STRING, v: "notula-test-tiny" }],
    ["general.alignment", { t: T.U32, v: ALIGN }],
    ["llama.context_length", { t: T.U32, v: o.contextLength ?? 8192 }],
    ["llama.embedding_length", { t: T.U32, v: nEmbd }],
    ["llama.block_count", { t: T.U32, v: nLayer }],
    ["llama.feed_forward_length", { t: T.U32, v: nFf }],
    ["llama.attention.head_count", { t: T.U32, v: nHead }],
    ["llama.attention.head_count_kv", { t: T.U32, v: nHead }],
    ["llama.rope.dimension_count", { t: T.U32, v: nEmbd / nHead }],
    ["llama.attention.layer_norm_rms_epsilon", { t: T.F32, v: 1e-5 }],
    ["tokenizer.ggml.model", { t: T.STRING, v: "llama" }],
    ["tokenizer.ggml.tokens", { t: T.ARRAY, of: T.STRING, v: tokens }],
    ["tokenizer.ggml.scores", { t: T.ARRAY, of: T.F32, v: scores }],
    ["tokenizer.ggml.token_type", { t: T.ARRAY, of: T.I32, v: types }],
    ["tokenizer.ggml.unknown_token_id", { t: T.U32, v: 0 }],
    ["tokenizer.ggml.bos_token_id", { t: T.U32, v: 1 }],
    ["tokenizer.ggml.eos_token_id", { t: T.U32, v: 2 }],
  ];

  const w = new Writer();
  w.push(Buffer.from("GGUF"));
  w.u32(GGUF_VERSION);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, val] of meta) {
    w.str(key);
    w.value(val);
  }
  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // F32
    w.u64(offset);
    offset += Math.ceil((t.data.length * 4) / ALIGN) * ALIGN;
  }
  w.pad();
  for (const t of tensors) {
    w.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.pad();
  }
  fs.writeFileSync(file, w.buffer());
  return file;
}
