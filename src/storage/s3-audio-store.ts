// The S3-compatible audio store (AWS S3, MinIO, Cloudflare R2, Ceph, Garage...): one
// object per recording under <bucket>/<prefix>/<key>. Clients upload straight to the
// bucket with presigned PUTs; uploads through this server stream in as multipart
// uploads, which appear only once complete, like the filesystem store's rename.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import { AudioIncompleteError, AudioTooLargeError, type AudioStore } from "./audio-store.js";

export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing slash; "" for the bucket's root. */
  prefix: string;
  /** A custom endpoint (MinIO, R2...); unset means AWS. */
  endpoint?: string;
  region: string;
  /** Path-style addressing (http://host/bucket/key), which most self-hosted stores need. */
  forcePathStyle: boolean;
}

/**
 * Reads `s3://bucket/prefix?endpoint=http://minio:9000&region=eu-west-1&pathStyle=true`.
 * Credentials are not part of it: they come from the usual AWS variables and files.
 */
export function parseS3Url(url: string, defaults: { region?: string; endpoint?: string } = {}): S3Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`The storage URL ${url} is not a URL; use s3://bucket/prefix.`);
  }
  if (u.protocol !== "s3:" || !u.hostname) throw new Error(`The storage URL ${url} must look like s3://bucket/prefix.`);
  const endpoint = u.searchParams.get("endpoint") ?? defaults.endpoint;
  const pathStyle = u.searchParams.get("pathStyle") ?? u.searchParams.get("forcePathStyle");
  return {
    bucket: u.hostname,
    prefix: decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, ""),
    endpoint: endpoint || undefined,
    region: u.searchParams.get("region") ?? defaults.region ?? "us-east-1",
    // A custom endpoint is usually a self-hosted store, which wants path style.
    forcePathStyle: pathStyle === null ? Boolean(endpoint) : pathStyle === "true" || pathStyle === "1",
  };
}

/** Counts bytes on their way to the bucket and stops at `maxBytes`. */
function byteLimit(maxBytes: number) {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(new AudioTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
  return { counter, bytes: () => bytes };
}

/** The AWS SDK weighs several megabytes: it loads when a bucket is first used, not with every command. */
const loadSdk = async () => {
  const [s3, storage, presigner] = await Promise.all([
    import("@aws-sdk/client-s3"),
    import("@aws-sdk/lib-storage"),
    import("@aws-sdk/s3-request-presigner"),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const notFound = (err: unknown) => {
  const name = (err as Error)?.name;
  return name === "NotFound" || name === "NoSuchKey" || statusOf(err) === 404;
};

export interface S3AudioStore extends AudioStore {
  /** Checks that the bucket is reachable with these credentials (for /readyz and start). */
  check(): Promise<void>;
  readonly location: S3Location;
}

export interface S3Settings extends S3Location {
  /** Static credentials; without them the SDK's default chain finds some. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export function createS3AudioStore(location: S3Settings, client?: S3Client): S3AudioStore {
  let ready: Promise<{ sdk: Sdk; s3: S3Client }> | undefined;
  const connect = () =>
    (ready ??= loadSdk().then((sdk) => ({
      sdk,
      s3:
        client ??
        new sdk.S3Client({
          region: location.region,
          endpoint: location.endpoint,
          forcePathStyle: location.forcePathStyle,
          credentials: location.credentials,
          // Checksums only where S3 requires them: a presigned PUT must not carry the
          // checksum of an empty body, and most S3-compatible stores ignore the rest.
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        }),
    })));
  const Bucket = location.bucket;
  const objectKey = (key: string) => (location.prefix ? `${location.prefix}/${key}` : key);

  async function head(key: string) {
    const { sdk, s3 } = await connect();
    try {
      return await s3.send(new sdk.HeadObjectCommand({ Bucket, Key: objectKey(key) }));
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  return {
    location: {
      bucket: location.bucket,
      prefix: location.prefix,
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: location.forcePathStyle,
    },
    async check() {
      const { sdk, s3 } = await connect();
      try {
        await s3.send(new sdk.HeadBucketCommand({ Bucket }));
      } catch (err) {
        // HEAD answers carry no message: say which bucket and what the status was.
        const status = statusOf(err);
        const why =
          status === 404
            ? "does not exist"
            : status === 403
              ? "refuses these credentials"
              : `cannot be reached (${(err as Error).name}${status ? `, HTTP ${status}` : ""})`;
        throw new Error(`The bucket ${Bucket} ${why}.`);
      }
    },

    async put(key, body, { maxBytes }) {
      const { sdk, s3 } = await connect();
      const limit = byteLimit(maxBytes);
      // The request body must not be destroyed on failure (its socket carries the
      // error response), so it is piped, not handed to pipeline().
      const fail = (err: Error) => limit.counter.destroy(err);
      body.once("error", (e) => fail(new AudioIncompleteError(`The upload broke off: ${e.message}`)));
      body.once("close", () => {
        if (!body.readableEnded) fail(new AudioIncompleteError("The upload ended before the whole body arrived."));
      });
      body.pipe(limit.counter);
      const upload = new sdk.Upload({
        client: s3,
        params: { Bucket, Key: objectKey(key), Body: limit.counter },
        queueSize: 2,
        partSize: 8 * 1024 * 1024,
      });
      let failure: Error | null = null;
      limit.counter.once("error", (err) => {
        failure = err;
        body.unpipe(limit.counter);
        body.pause();
        void upload.abort().catch(() => {});
      });
      try {
        await upload.done();
      } catch (err) {
        const cause = failure ?? (err as Error);
        if (cause instanceof AudioTooLargeError || cause instanceof AudioIncompleteError) throw cause;
        throw new AudioIncompleteError(`The upload did not complete: ${cause.message}`);
      }
      if (failure) {
        // The limit tripped after the last part was sent: take the object back.
        await s3.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) })).catch(() => {});
        throw failure;
      }
      return { bytes: limit.bytes() };
    },

    async exists(key) {
      return (await head(key)) !== null;
    },

    async size(key) {
      const h = await head(key);
      return h ? (h.ContentLength ?? 0) : null;
    },

    /** ffmpeg reads a file: the object is streamed to a private temporary copy. */
    async localFile(key) {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "notula-audio-"));
      const file = path.join(dir, `${randomBytes(6).toString("hex")}${path.extname(key)}`);
      const release = () => fsp.rm(dir, { recursive: true, force: true });
      try {
        const { sdk, s3 } = await connect();
        const got = await s3.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(key) }));
        await pipeline(got.Body as Readable, fs.createWriteStream(file, { mode: 0o600 }));
      } catch (err) {
        await release();
        throw err;
      }
      return { path: file, release };
    },

    read(key, range) {
      const out = new PassThrough();
      connect()
        .then(({ sdk, s3 }) =>
          s3.send(
            new sdk.GetObjectCommand({
              Bucket,
              Key: objectKey(key),
              Range: range ? `bytes=${range.start}-${range.end}` : undefined,
            }),
          ),
        )
        .then(
          (got) => (got.Body as Readable).on("error", (e) => out.destroy(e)).pipe(out),
          (err) => out.destroy(err),
        );
      return out;
    },

    async delete(key) {
      const { sdk, s3 } = await connect();
      await s3.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    async presignPut(key, { contentType, expiresInSec }) {
      const { sdk, s3 } = await connect();
      return sdk.getSignedUrl(s3, new sdk.PutObjectCommand({ Bucket, Key: objectKey(key), ContentType: contentType }), {
        expiresIn: expiresInSec,
        // The Content-Type is part of the signature: a PUT with another type is refused.
        signableHeaders: new Set(["content-type"]),
      });
    },
  };
}
