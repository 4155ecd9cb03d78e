// A local S3-compatible store for tests: s3rver keeps the objects, and in front of it
// a small proxy checks what s3rver does not, the SigV4 signature of presigned URLs
// (query-string auth) including their expiry and signed headers, as S3 itself does.
import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SignatureV4 } from "@smithy/signature-v4";
import S3rver from "s3rver";
import { tempDir } from "./server.js";

export const S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** node:crypto in the shape the signer wants (HMAC when given a secret). */
class NodeSha256 {
  private h;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key =
      secret === undefined || typeof secret === "string"
        ? secret
        : ArrayBuffer.isView(secret)
          ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength)
          : Buffer.from(secret);
    this.h = key ? createHmac("sha256", key) : createHash("sha256");
  }
  update(data: Uint8Array) {
    this.h.update(data);
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
  reset() {}
}

const AUTH_PARAMS = [
  "X-Amz-Algorithm",
  "X-Amz-Credential",
  "X-Amz-Date",
  "X-Amz-Expires",
  "X-Amz-SignedHeaders",
  "X-Amz-Signature",
  "X-Amz-Security-Token",
];

/** Why a presigned request must be refused, or null when its signature holds. */
async function presignedRefusal(req: http.IncomingMessage, url: URL): Promise<string | null> {
  const q = url.searchParams;
  const [accessKeyId, , region] = (q.get("X-Amz-Credential") ?? "").split("/");
  if (accessKeyId !== S3_CREDENTIALS.accessKeyId) return "InvalidAccessKeyId";
  const date = q.get("X-Amz-Date") ?? "";
  const signedAt = Date.UTC(
    +date.slice(0, 4),
    +date.slice(4, 6) - 1,
    +date.slice(6, 8),
    +date.slice(9, 11),
    +date.slice(11, 13),
    +date.slice(13, 15),
  );
  const expires = Number(q.get("X-Amz-Expires"));
  if (!Number.isFinite(signedAt) || !(expires > 0) || Date.now() > signedAt + expires * 1000)
    return "AccessDenied: Request has expired";
  const signedHeaders = (q.get("X-Amz-SignedHeaders") ?? "").split(";");
  const query: Record<string, string> = {};
  for (const [k, v] of q) if (!AUTH_PARAMS.includes(k)) query[k] = v;
  const headers: Record<string, string> = {};
  for (const h of signedHeaders) headers[h] = String(req.headers[h] ?? "");
  // The presigner signs with the payload hash it hoists into the query.
  const payloadHash = query["X-Amz-Content-Sha256"];
  if (payloadHash) {
    delete query["X-Amz-Content-Sha256"];
    headers["X-Amz-Content-Sha256"] = payloadHash;
  }
  const signer = new SignatureV4({
    credentials: S3_CREDENTIALS,
    region,
    service: "s3",
    sha256: NodeSha256,
    uriEscapePath: false,
  });
  const expected = await signer.presign(
    {
      method: req.method!,
      protocol: "http:",
      hostname: url.hostname,
      port: Number(url.port),
      path: decodeURIComponent(url.pathname),
      query,
      headers,
    },
    { signingDate: new Date(signedAt), expiresIn: expires, signableHeaders: new Set(signedHeaders) },
  );
  return expected.query?.["X-Amz-Signature"] === q.get("X-Amz-Signature") ? null : "SignatureDoesNotMatch";
}

export interface TestS3 {
  /** The endpoint clients and the server use (the verifying proxy). */
  endpoint: string;
  bucket: string;
  /** The objects s3rver holds, by key. */
  objectKeys(): string[];
  stop(): Promise<void>;
}

export async function startS3(bucket = "notula-test"): Promise<TestS3> {
  const dir = tempDir("notula-s3-");
  const s3rver = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port: backendPort } = (await s3rver.run()) as AddressInfo;
  const proxy = http.createServer(async (req, res) => {
    const url = new URL(req.url!, `http://${req.headers.host}`);
    if (url.searchParams.has("X-Amz-Signature")) {
      const refusal = await presignedRefusal(req, url);
      if (refusal) {
        req.resume();
        res.writeHead(403, { "content-type": "application/xml" }).end(`<Error><Code>${refusal}</Code></Error>`);
        return;
      }
    }
    const upstream = http.request(
      { host: "127.0.0.1", port: backendPort, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  const root = `${dir}/${bucket}`;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objectKeys() {
      const out: string[] = [];
      const walk = (d: string, rel: string) => {
        for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
          if (e.isDirectory()) walk(`${d}/${e.name}`, rel ? `${rel}/${e.name}` : e.name);
          else if (e.name.endsWith("._S3rver_object")) out.push(`${rel}/${e.name.slice(0, -"._S3rver_object".length)}`);
        }
      };
      walk(root, "");
      return out.sort();
    },
    async stop() {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
      await s3rver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
