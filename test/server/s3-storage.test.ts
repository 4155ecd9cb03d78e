// Recordings on S3-compatible storage: presigned PUTs straight to the bucket (bound to
// the content type, refused when tampered with or expired), notes made from them and
// processed from the bucket, the size limit enforced, objects gone with their notes,
// and /readyz watching the store.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3AudioStore, parseS3Url } from "../../src/storage/s3-audio-store.js";
import { AudioTooLargeError } from "../../src/storage/audio-store.js";
import { S3Client } from "@aws-sdk/client-s3";
import { client, errorCode, type Client } from "../helpers/http.js";
import { startServer, tempDir, type TestServer } from "../helpers/server.js";
import { S3_CREDENTIALS, startS3, type TestS3 } from "../helpers/s3.js";
import { startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";
import { fileBytes, tone, wavBytes } from "../helpers/audio.js";

const awsEnv = {
  AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
  AWS_REGION: "eu-west-1",
};

async function waitForStatus(api: Client, id: string, done = ["completed", "recorded-not-summarized"]) {
  for (let i = 0; i < 200; i++) {
    const r = await api("GET", `/v1/notes/${id}`);
    if (done.includes(r.body.note.status)) return r.body.note;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(
    `note ${id} never finished: ${JSON.stringify((await api("GET", `/v1/notes/${id}`)).body).slice(0, 600)}`,
  );
}

describe("parseS3Url", () => {
  it("reads bucket, prefix and the endpoint options; a custom endpoint means path style", () => {
    expect(parseS3Url("s3://notes/rec/2026/?endpoint=http://minio:9000&region=eu-west-1")).toEqual({
      bucket: "notes",
      prefix: "rec/2026",
      endpoint: "http://minio:9000",
      region: "eu-west-1",
      forcePathStyle: true,
    });
    expect(parseS3Url("s3://notes", { region: "us-west-2" })).toEqual({
      bucket: "notes",
      prefix: "",
      endpoint: undefined,
      region: "us-west-2",
      forcePathStyle: false,
    });
    expect(parseS3Url("s3://b/p?endpoint=https://r2.example&pathStyle=false").forcePathStyle).toBe(false);
    expect(() => parseS3Url("http://notes/rec")).toThrow(/s3:\/\/bucket/);
  });
});

describe("the S3 audio store", () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(async () => s3?.stop());

  const store = () =>
    createS3AudioStore(
      { bucket: s3.bucket, prefix: "unit", endpoint: s3.endpoint, region: "eu-west-1", forcePathStyle: true },
      new S3Client({
        endpoint: s3.endpoint,
        region: "eu-west-1",
        forcePathStyle: true,
        credentials: S3_CREDENTIALS,
        requestChecksumCalculation: "WHEN_REQUIRED",
      }),
    );

  it("streams a multi-part upload in, reads ranges and whole copies back, and deletes", async () => {
    const st = store();
    await st.check();
    const body = Buffer.alloc(9 * 1024 * 1024 + 123);
    for (let i = 0; i < body.length; i++) body[i] = i % 251;
    const chunks = Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) =>
      body.subarray(i * 65536, (i + 1) * 65536),
    );
    expect(await st.put("ws_1/upl_a.wav", Readable.from(chunks), { maxBytes: body.length })).toEqual({
      bytes: body.length,
    });
    expect(await st.size("ws_1/upl_a.wav")).toBe(body.length);
    expect(s3.objectKeys()).toContain("unit/ws_1/upl_a.wav");
    const part: Buffer[] = [];
    for await (const c of st.read("ws_1/upl_a.wav", { start: 1000, end: 1999 })) part.push(c as Buffer);
    expect(Buffer.concat(part).equals(body.subarray(1000, 2000))).toBe(true);
    const local = await st.localFile("ws_1/upl_a.wav");
    expect(fileBytes(local.path).equals(body)).toBe(true);
    await local.release();
    await st.delete("ws_1/upl_a.wav");
    expect(await st.exists("ws_1/upl_a.wav")).toBe(false);
    expect(await st.size("ws_1/upl_a.wav")).toBeNull();
  });

  it("refuses a body over the limit and keeps nothing of it", async () => {
    const st = store();
    await expect(
      st.put("ws_1/upl_big.wav", Readable.from([Buffer.alloc(700), Buffer.alloc(700)]), { maxBytes: 1000 }),
    ).rejects.toBeInstanceOf(AudioTooLargeError);
    await expect(
      st.put("ws_1/upl_big2.wav", Readable.from([Buffer.alloc(6 * 1024 * 1024), Buffer.alloc(6 * 1024 * 1024)]), {
        maxBytes: 10 * 1024 * 1024,
      }),
    ).rejects.toBeInstanceOf(AudioTooLargeError);
    expect(await st.exists("ws_1/upl_big.wav")).toBe(false);
    expect(await st.exists("ws_1/upl_big2.wav")).toBe(false);
  });
});

describe("notula serve --storage s3://…", () => {
  let s3: TestS3;
  let stt: VendorServer;
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    s3 = await startS3();
    stt = await startTranscriptionServer({ echo: true });
    server = await startServer({
      args: [
        "--no-rate-limit",
        "--stt-url",
        stt.url,
        "--max-upload-bytes",
        "400000",
        "--storage",
        `s3://${s3.bucket}/recordings?endpoint=${s3.endpoint}`,
      ],
      env: awsEnv,
    });
    api = client(server.url, server.key);
  });
  afterAll(async () => {
    await server?.stop();
    await stt?.close();
    await s3?.stop();
  });

  const uploadUrl = async (fileExtension = "wav") => {
    const r = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension, duration: 5 });
    expect(r.status, r.text).toBe(200);
    return r.body as { presignedUrl: string; audioUrl: string; contentType: string };
  };
  const put = (url: string, body: Buffer, contentType: string) =>
    fetch(url, { method: "PUT", body, headers: { "content-type": contentType } });

  it("hands out presigned S3 PUTs bound to the content type; tampered, mistyped and expired ones are refused", async () => {
    const u = await uploadUrl();
    const url = new URL(u.presignedUrl);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toMatch(new RegExp(`^/${s3.bucket}/recordings/ws_[^/]+/upl_[^/]+\\.wav$`));
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toContain("content-type");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("600");
    const wav = fileBytes(tone(tempDir(), 1));
    expect((await put(u.presignedUrl, wav, "audio/mpeg")).status).toBe(403);
    const tampered = new URL(u.presignedUrl);
    tampered.pathname = tampered.pathname.replace(/\.wav$/, "x.wav");
    expect((await put(tampered.toString(), wav, "audio/wav")).status).toBe(403);
    const expired = new URL(u.presignedUrl);
    expired.searchParams.set("X-Amz-Date", "20200101T000000Z");
    expect((await put(expired.toString(), wav, "audio/wav")).status).toBe(403);
    // Before the PUT, the note cannot be made.
    const early = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(early.status).toBe(400);
    expect(early.body.error.message).toMatch(/not been uploaded/);
    expect((await put(u.presignedUrl, wav, "audio/wav")).status).toBe(200);
  });

  it("makes a note from the object in the bucket and transcribes it from there; deleting the note deletes the object", async () => {
    const u = await uploadUrl();
    const wav = fileBytes(tone(tempDir(), 2));
    expect((await put(u.presignedUrl, wav, u.contentType)).status).toBe(200);
    const made = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl, title: "From the bucket" });
    expect(made.status, made.text).toBe(200);
    const note = await waitForStatus(api, made.body.noteId);
    expect(note.status, note.processingError).toBe("completed");
    expect(note.transcripts[0].text).toMatch(/window of 2\.\d seconds/);
    const again = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(again.status).toBe(409);
    const key = new URL(u.presignedUrl).pathname.slice(`/${s3.bucket}/`.length);
    expect(s3.objectKeys()).toContain(key);
    expect((await api("DELETE", `/v1/notes/${made.body.noteId}`)).status).toBe(200);
    expect(s3.objectKeys()).not.toContain(key);
  });

  it("enforces the upload size limit on direct uploads when the note is made, and removes the object", async () => {
    const u = await uploadUrl();
    expect((await put(u.presignedUrl, wavBytes(400_001), "audio/wav")).status).toBe(200);
    const r = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(r.status).toBe(413);
    expect(errorCode(r)).toBe("payload_too_large");
    expect(s3.objectKeys().some((k) => k.endsWith(new URL(u.presignedUrl).pathname.split("/").pop()!))).toBe(false);
    // Exactly at the limit is accepted.
    const edge = await uploadUrl();
    expect((await put(edge.presignedUrl, wavBytes(400_000), "audio/wav")).status).toBe(200);
    expect((await api("POST", "/v1/notes/from-audio", { audioUrl: edge.audioUrl })).status).toBe(200);
  });

  it("checks a direct upload is a recording when the note is made, and removes what is not", async () => {
    const u = await uploadUrl();
    expect((await put(u.presignedUrl, Buffer.from("%PDF-1.7\n1 0 obj <<>>"), "audio/wav")).status).toBe(200);
    const r = await api("POST", "/v1/notes/from-audio", { audioUrl: u.audioUrl });
    expect(r.status).toBe(415);
    expect(r.body.error.message).toMatch(
      /^The file is a PDF document, not a recording: .* It was removed; upload a recording to a new URL\.$/,
    );
    expect(s3.objectKeys().some((k) => k.endsWith(new URL(u.presignedUrl).pathname.split("/").pop()!))).toBe(false);
  });

  it("/readyz checks the bucket", async () => {
    const ready = await client(server.url)("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", storage: "ok" });
    const broken = await startServer({
      args: ["--storage", `s3://no-such-bucket/x?endpoint=${s3.endpoint}`],
      env: awsEnv,
    });
    try {
      const r = await client(broken.url)("GET", "/readyz");
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({
        status: "unavailable",
        storage: "unreachable",
        error: { code: "service_unavailable" },
      });
    } finally {
      await broken.stop();
    }
  });
});
