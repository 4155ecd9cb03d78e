// A model host for tests: serves files slowly enough to watch a download's progress,
// with the SHA-256 Hugging Face publishes (X-Linked-Etag), or a wrong one.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A model host: serves any ggml-*.bin slowly enough to watch its progress, with the SHA-256 Hugging Face publishes. */
export interface ModelHost {
  url: string;
  body: Buffer;
  /** The checksum it publishes; a wrong one stands for a corrupted download. */
  published: string;
  requests: number;
  close(): Promise<void>;
}

export async function startModelHost(
  size = 3 * 1024 * 1024,
  /** files: serve these by name instead of any ggml-*.bin (each with its own checksum). */
  opts: { wrongChecksum?: boolean; files?: Record<string, Buffer> } = {},
): Promise<ModelHost> {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 7919) % 251;
  const sha = createHash("sha256").update(body).digest("hex");
  const host: ModelHost = {
    url: "",
    body,
    published: opts.wrongChecksum ? createHash("sha256").update("something else").digest("hex") : sha,
    requests: 0,
    close: async () => {},
  };
  const server = http.createServer(async (req, res) => {
    host.requests++;
    const file = (req.url ?? "").slice(1);
    const served = opts.files ? opts.files[file] : /^ggml-[\w.-]+\.bin$/.test(file) ? body : undefined;
    if (!served) return res.writeHead(404).end();
    const published = opts.wrongChecksum ? host.published : createHash("sha256").update(served).digest("hex");
    res.writeHead(200, {
      "content-length": String(served.length),
      "content-type": "application/octet-stream",
      "x-linked-etag": `"${published}"`,
    });
    const chunk = 128 * 1024;
    for (let at = 0; at < served.length; at += chunk) {
      if (!res.write(served.subarray(at, at + chunk))) await new Promise((r) => res.once("drain", r));
      await new Promise((r) => setTimeout(r, 40));
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host.close = () => new Promise((r) => server.close(() => r()));
  return host;
}
