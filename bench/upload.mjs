// Upload throughput: a 1 GiB file through the presigned URL against a plain
// streaming copy of the same file on the same disk (both flushed to disk), with the
// server's peak memory above idle while it receives the file.
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import http from "node:http";
import { api, rssMb, seconds, startServer, stopServer } from "./lib.mjs";

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);

async function makeFile(file) {
  const block = Buffer.alloc(4 * 1024 * 1024);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  const out = fs.createWriteStream(file);
  for (let written = 0; written < SIZE; written += block.length)
    if (!out.write(block.subarray(0, Math.min(block.length, SIZE - written)))) await once(out, "drain");
  out.end();
  await once(out, "finish");
  const fd = await fsp.open(file, "r");
  await fd.sync();
  await fd.close();
}

async function plainCopy(from, to) {
  const t = performance.now();
  await pipeline(
    fs.createReadStream(from, { highWaterMark: 1024 * 1024 }),
    fs.createWriteStream(to, { highWaterMark: 1024 * 1024 }),
  );
  const fd = await fsp.open(to, "r");
  await fd.sync();
  await fd.close();
  return performance.now() - t;
}

export async function benchUpload() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-upload-"));
  try {
    const source = path.join(dir, "source.mp3");
    await makeFile(source);
    const copyBefore = await plainCopy(source, path.join(dir, "copy.mp3"));
    fs.rmSync(path.join(dir, "copy.mp3"));

    const server = await startServer(path.join(dir, "data"), ["--max-upload-bytes", String(SIZE + 1)]);
    const { presignedUrl, contentType } = await api(server, "POST", "/v1/notes/from-audio/generate-upload-url", {
      fileExtension: "mp3",
      duration: 3600,
    });
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssMb(server.proc.pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.proc.pid))), 20);
    const t = performance.now();
    // node:http with a piped file stream: a lean client, so the server is what is measured.
    const { status, body } = await new Promise((resolve, reject) => {
      const req = http.request(
        presignedUrl,
        { method: "PUT", headers: { "content-type": contentType, "content-length": String(SIZE) } },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      fs.createReadStream(source, { highWaterMark: 1024 * 1024 }).pipe(req);
    });
    const uploadMs = performance.now() - t;
    clearInterval(sampler);
    if (status !== 200 || body.bytes !== SIZE) throw new Error(`upload failed: ${status} ${JSON.stringify(body)}`);
    await stopServer(server.proc);
    // The baseline before and after, averaged: the disk's state drifts over a run.
    const copyAfter = await plainCopy(source, path.join(dir, "copy.mp3"));
    const copyMs = (copyBefore + copyAfter) / 2;

    const mbps = (ms) => (SIZE / 1024 / 1024 / (ms / 1000)).toFixed(0);
    const ratio = copyMs / uploadMs;
    console.log(`\nUpload of ${(SIZE / 1024 ** 3).toFixed(2)} GiB through the presigned URL`);
    console.log(`plain file copy (baseline)   ${seconds(copyMs).padStart(7)} s  ${mbps(copyMs).padStart(5)} MB/s`);
    console.log(
      `PUT presignedUrl             ${seconds(uploadMs).padStart(7)} s  ${mbps(uploadMs).padStart(5)} MB/s   ratio ${ratio.toFixed(2)}`,
    );
    console.log(
      `server memory: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, +${(peak - idle).toFixed(0)} MB during the upload`,
    );
    const ok = ratio >= 0.7 && peak - idle < 100;
    console.log(`goal: throughput >= 0.70 of the copy, < 100 MB above idle: ${ok ? "met" : "not met"}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
