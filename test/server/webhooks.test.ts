import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, errorCode, type Client } from "../helpers/http.js";
import { startServer, type TestServer, storeQuery } from "../helpers/server.js";

let open: TestServer;
let strict: TestServer;
let api: Client;
let strictApi: Client;

beforeAll(async () => {
  [open, strict] = await Promise.all([startServer({ args: ["--allow-private-webhooks"] }), startServer()]);
  api = client(open.url, open.key);
  strictApi = client(strict.url, strict.key);
});
afterAll(async () => {
  await open?.stop();
  await strict?.stop();
});

describe("automation webhook registration", () => {
  it("registers a URL and returns success with a Standard Webhooks secret", async () => {
    const r = await api("POST", "/v1/integrations/automation/webhook", {
      hookUrl: "http://127.0.0.1:4000/hooks/notes",
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("success");
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(r.body.secret.slice(6), "base64")).toHaveLength(24);
  });

  it("the same URL twice keeps one registration and one secret", async () => {
    const first = await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:4000/twice" });
    const second = await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:4000/twice" });
    expect(second.body.secret).toBe(first.body.secret);
    const list = (await api("GET", "/v1/integrations/automation/webhook")).body.webhooks;
    expect(list.filter((w: { hookUrl: string }) => w.hookUrl === "http://127.0.0.1:4000/twice")).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(first.body.secret);
    expect(list[0]).toEqual({
      id: expect.any(String),
      hookUrl: expect.any(String),
      createdAt: expect.any(String),
      disabled: false,
      consecutiveFailures: 0,
    });
  });

  it("removes a registration with DELETE {hookUrl}", async () => {
    await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:4000/gone" });
    const del = await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:4000/gone" });
    expect(del.body).toEqual({ status: "success" });
    const again = await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:4000/gone" });
    expect(again.status).toBe(404);
  });

  it("stores the secret encrypted, not in the clear", async () => {
    const r = await api("POST", "/v1/integrations/automation/webhook", { hookUrl: "http://127.0.0.1:4000/enc" });
    const dump = JSON.stringify(await storeQuery(open.dataDir, "SELECT * FROM webhooks"));
    expect(dump).not.toContain(r.body.secret);
    expect(dump).not.toContain(r.body.secret.slice(6));
  });

  it("refuses loopback, private, link-local and metadata targets unless allowed", async () => {
    for (const hookUrl of [
      "http://127.0.0.1/x",
      "http://localhost:8080/x",
      "http://10.1.2.3/x",
      "http://192.168.0.10/x",
      "http://172.16.5.4/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/x",
      "http://[fd00::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://0.0.0.0/x",
    ]) {
      const r = await strictApi("POST", "/v1/integrations/automation/webhook", { hookUrl });
      expect(r.status, hookUrl).toBe(400);
      expect(errorCode(r)).toBe("bad_request");
      expect(r.body.error.message).toMatch(/allow-private-webhooks/);
    }
    const publicHost = await strictApi("POST", "/v1/integrations/automation/webhook", {
      hookUrl: "https://93.184.215.14/hook",
    });
    expect(publicHost.status).toBe(200);
  });

  it("400 for a missing or invalid hookUrl", async () => {
    for (const body of [
      {},
      { hookUrl: "" },
      { hookUrl: "nope" },
      { hookUrl: "javascript:alert(1)" },
      { hookUrl: "https://u:p@example.com/x" },
    ]) {
      const r = await api("POST", "/v1/integrations/automation/webhook", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });
});
