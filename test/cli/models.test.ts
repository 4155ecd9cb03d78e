// `notula models`: downloads from a local mirror that speaks like the model host
// (SHA-256 in X-Linked-Etag), with progress, verification and clean failures.
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, speak } from "../helpers/audio.js";
import { uploadRecording, waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startModelHost } from "../helpers/model-host.js";
import { run, startServer, tempDir } from "../helpers/server.js";

const content = Buffer.alloc(3 * 1024 * 1024, 7);
const sha = createHash("sha256").update(content).digest("hex");
let mirror: http.Server;
let base: string;
let mode: "good" | "bad-sum" | "no-sum" = "good";

beforeAll(async () => {
  mirror = http.createServer((req, res) => {
    if (req.url !== "/ggml-tiny.en.bin") return void res.writeHead(404).end();
    const headers: Record<string, string> = { "content-length": String(content.length) };
    if (mode === "good") headers["x-linked-etag"] = `"${sha}"`;
    if (mode === "bad-sum") headers["x-linked-etag"] = `"${"0".repeat(64)}"`;
    res.writeHead(200, headers);
    res.end(content);
  });
  await new Promise<void>((r) => mirror.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => mirror.close(() => r())));

describe("notula models", () => {
  it("pull downloads with progress and verifies the checksum", async () => {
    const dir = tempDir();
    mode = "good";
    const r = await run(["models", "pull", "tiny.en", "--data-dir", dir], { env: { NOTULA_MODELS_URL: base } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(path.join(dir, "models", "ggml-tiny.en.bin"));
    // Buffer#equals: a deep toEqual walks 3 MB byte by byte, which takes seconds.
    expect(fs.readFileSync(r.stdout.trim()).equals(content)).toBe(true);
    expect(r.stderr).toMatch(/Downloading tiny\.en: 0%/);
    expect(r.stderr).toMatch(/Downloading tiny\.en: 100% \(3\.0 of 3\.0 MB\)/);
    expect(r.stderr).toContain(`SHA-256 verified (${sha})`);
    const list = JSON.parse((await run(["models", "list", "--data-dir", dir, "--json"])).stdout);
    expect(list.items.find((m: { name: string }) => m.name === "tiny.en")).toMatchObject({
      installed: true,
      bytes: content.length,
    });
  });

  it("a checksum mismatch keeps nothing; an unpublished checksum needs --no-verify", async () => {
    const dir = tempDir();
    mode = "bad-sum";
    const bad = await run(["models", "pull", "tiny.en", "--data-dir", dir], { env: { NOTULA_MODELS_URL: base } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Checksum mismatch/);
    expect(fs.readdirSync(path.join(dir, "models"))).toEqual([]);
    mode = "no-sum";
    const unverified = await run(["models", "pull", "tiny.en", "--data-dir", dir], {
      env: { NOTULA_MODELS_URL: base },
    });
    expect(unverified.code).toBe(1);
    expect(unverified.stderr).toMatch(/--no-verify/);
    const accepted = await run(["models", "pull", "tiny.en", "--data-dir", dir, "--no-verify"], {
      env: { NOTULA_MODELS_URL: base },
    });
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toMatch(/Not verified/);
  });

  it("pull speakers downloads both speaker models with progress and refuses files sherpa-onnx cannot load", async () => {
    const dir = tempDir();
    const notAModel = Buffer.alloc(400_000, 3);
    const host = await startModelHost(0, {
      files: { "pyannote-segmentation-3-0.onnx": notAModel, "nemo_en_titanet_small.onnx": notAModel },
    });
    try {
      const r = await run(["models", "pull", "speakers", "--data-dir", dir], { env: { NOTULA_MODELS_URL: host.url } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/Downloading speakers: \d+%/);
      expect(r.stderr).toMatch(
        /The speaker models were refused: a model file could not be loaded \(.+\); the files were removed\./,
      );
      expect(host.requests).toBe(2);
      expect(fs.readdirSync(path.join(dir, "models", "speakers"))).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it("unknown names are usage errors; an unreachable host says what to do", async () => {
    const dir = tempDir();
    const unknown = await run(["models", "pull", "gigantic", "--data-dir", dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown model "gigantic"/);
    const offline = await run(["models", "pull", "base.en", "--data-dir", dir], {
      env: { NOTULA_MODELS_URL: "http://127.0.0.1:9" },
    });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(/--model-path/);
    const p = await run(["models", "path", "base.en", "--data-dir", dir]);
    expect(p.stdout.trim()).toBe(path.join(dir, "models", "ggml-base.en.bin"));
  });
});

describe("the local whisper engine", () => {
  const work = tempDir("notula-whisper-");
  it("without a model, or with a file that is not one, the note says so", async () => {
    const recording = convert(speak(work, "Testing the whisper engine."), "wav");
    const bogus = path.join(work, "bogus.bin");
    fs.writeFileSync(bogus, "not a model");
    for (const [args, message] of [
      [["--stt-engine", "whisper"], /No whisper model is installed: run `notula models pull base.en`/],
      [["--stt-engine", "whisper", "--model-path", bogus], /is not a whisper\.cpp model/],
    ] as const) {
      const server = await startServer({ args: ["--no-rate-limit", ...args] });
      try {
        const api = client(server.url, server.key);
        const id = await uploadRecording(api, recording, "wav");
        const note = await waitForStatus(api, id);
        expect(note.status).toBe("recorded-not-summarized");
        expect(note.processingError).toMatch(message);
      } finally {
        await server.stop();
      }
    }
  });
});
