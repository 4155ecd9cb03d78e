// A model file checked before llama.cpp is given it: llama.cpp says only "Failed to load
// model" of a file that is not a GGUF or that a download cut short, so those two are
// found here first and named, by reading the file's header (node-llama-cpp's parser).
import fs from "node:fs";
import path from "node:path";
import { LocalModelError } from "./local-model-error.js";

/** The part of node-llama-cpp's header reader used here. */
export type ReadGgufFileInfo = (file: string) => Promise<{ tensorInfo?: { fileOffset: number | bigint }[] }>;

const MAGIC = "GGUF";

/** Rejects with a LocalModelError naming the file when it is missing, not a GGUF, or shorter than its header says. */
export async function checkGgufFile(file: string, readInfo: ReadGgufFileInfo): Promise<void> {
  const name = path.basename(file);
  const size = (await fs.promises.stat(file).catch(() => null))?.size;
  if (size === undefined) throw new LocalModelError(`The local language model ${name} is missing (${file})`);
  const head = Buffer.alloc(MAGIC.length);
  const fd = await fs.promises.open(file, "r");
  try {
    await fd.read(head, 0, head.length, 0);
  } finally {
    await fd.close();
  }
  if (head.toString("latin1") !== MAGIC)
    throw new LocalModelError(`${name} is not a GGUF model file: it does not begin as one does`);
  let tensors: { fileOffset: number | bigint }[];
  try {
    tensors = (await readInfo(file)).tensorInfo ?? [];
  } catch (err) {
    throw new LocalModelError(
      `${name} is not a readable GGUF model file: its header is damaged (${(err as Error).message.slice(0, 200)})`,
    );
  }
  const last = tensors.reduce((n, t) => Math.max(n, Number(t.fileOffset)), 0);
  if (!tensors.length || last >= size)
    throw new LocalModelError(
      `${name} is incomplete: it has ${size} bytes, but its weights run past byte ${last}. Download it again.`,
    );
}
