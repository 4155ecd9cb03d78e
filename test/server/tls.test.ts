// `notula serve --tls-cert --tls-key`: https without a reverse proxy (browsers let a
// page use the microphone only on https or localhost), and a clear refusal of a
// certificate without its key or a file that cannot be read.
import { execFileSync } from "node:child_process";
import https from "node:https";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startServer, tempDir, type TestServer } from "../helpers/server.js";

const dir = tempDir("notula-tls-");
const cert = path.join(dir, "cert.pem");
const key = path.join(dir, "key.pem");

function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca: execFileSync("cat", [ca]) }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("https", () => {
  let server: TestServer;
  beforeAll(async () => {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    server = await startServer({ args: ["--tls-cert", cert, "--tls-key", key] });
  });
  afterAll(() => server?.stop());

  it("serves the API and the web app over https, and says so in its links", async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await get(`${server.url}/healthz`, cert);
    expect(health.status).toBe(200);
    const spec = JSON.parse((await get(`${server.url}/v1/openapi.json`, cert)).body);
    expect(spec.servers[0].url).toBe(server.url);
    expect((await get(`${server.url}/sign-in`, cert)).body).toMatch(/<form/);
  });

  it("refuses a certificate without its key, and a file it cannot read, before listening", async () => {
    const alone = await run(["serve", "--port", "0", "--data-dir", tempDir(), "--tls-cert", cert]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/certificate and its key/);
    const missing = await run([
      "serve",
      "--port",
      "0",
      "--data-dir",
      tempDir(),
      "--tls-cert",
      cert,
      "--tls-key",
      "/nonexistent.pem",
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read the TLS key \/nonexistent\.pem/);
  });
});
