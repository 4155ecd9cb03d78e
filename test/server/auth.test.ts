// Route-level: through app.request() (the fast tier, helpers/app.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, seedIds } from "../helpers/endpoints.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { admin, storeQuery } from "../helpers/server.js";
import { startApp, type TestApp } from "../helpers/app.js";

let server: TestApp;
let api: Client;

beforeAll(async () => {
  server = await startApp({ args: ["--no-rate-limit", "--allow-private-webhooks"] });
  api = client(server, server.key);
});
afterAll(() => server?.stop());

describe("authentication", () => {
  it("401 for a missing, malformed, unknown or revoked key, on every endpoint", async () => {
    const ids = await seedIds(api);
    const created = await admin(server.dataDir, ["keys", "create", "--name", "to-revoke"]);
    await admin(server.dataDir, ["keys", "revoke", created.id]);
    const headers: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer ntl_" + "A".repeat(43) },
      { authorization: "Bearer not-a-key" },
      { "x-api-key": "ntl_wrong" },
      { authorization: `Bearer ${created.key}` },
    ];
    for (const ep of ENDPOINTS) {
      for (const h of headers) {
        const r = await client(server)(ep.method, ep.path(ids), ep.body?.(ids), h);
        expect(r.status, `${ep.method} ${ep.path(ids)} ${JSON.stringify(h)}`).toBe(401);
        expect(errorCode(r)).toBe("unauthorized");
        expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    }
  });

  it("accepts X-API-Key as well as Authorization: Bearer", async () => {
    const r = await client(server)("GET", "/v1/me", undefined, { "x-api-key": server.key });
    expect(r.status).toBe(200);
    const lower = await client(server)("GET", "/v1/me", undefined, { authorization: `bearer ${server.key}` });
    expect(lower.status).toBe(200);
  });

  it("keys are stored only as hashes", async () => {
    const rows = await storeQuery(server.dataDir, "SELECT * FROM api_keys");
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(server.key);
    expect(dump).not.toContain(server.key.slice(14));
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.key_hash)))).toBe(true);
  });
});

describe("scopes: 403 for a valid key without the scope, 2xx with it", () => {
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    for (const scope of ["notes", "folders", "users", "templates"])
      keys[scope] = (await admin(server.dataDir, ["keys", "create", "--name", scope, "--scopes", scope])).key;
  });

  for (const ep of ENDPOINTS) {
    it(`${ep.method} ${ep.path({ note: ":id", folder: ":id", invite: ":id", member: ":id", group: ":id", article: ":id", user: ":id" })} needs ${ep.scope ?? "any key"}`, async () => {
      for (const [scope, key] of Object.entries(keys)) {
        const ids = await seedIds(api);
        const r = await client(server, key)(ep.method, ep.path(ids), ep.body?.(ids));
        if (ep.scope === null || ep.scope === scope) {
          expect(r.status, `${scope}: ${r.text}`).toBe(200);
        } else {
          expect(r.status, `${scope}: ${r.text}`).toBe(403);
          expect(errorCode(r)).toBe("forbidden");
          expect(r.body.error.message).toContain(ep.scope);
        }
      }
    });
  }

  it("403 comes before validation: a key without the scope learns nothing about the input", async () => {
    const r = await client(server, keys.users)("GET", "/v1/notes?limit=abc");
    expect(r.status).toBe(403);
  });
});

describe("rate limits", () => {
  it("per key per minute by plan, with headers, 429 and retry_after", async () => {
    const limited = await startApp({ env: { NOTULA_RATE_LIMIT_FREE: "5", NOTULA_RATE_LIMIT_ENTERPRISE: "8" } });
    try {
      const free = await admin(limited.dataDir, ["workspaces", "create", "--name", "Free", "--plan", "free"]);
      const freeApi = client(limited, free.key);
      for (let i = 1; i <= 5; i++) {
        const r = await freeApi("GET", "/v1/me");
        expect(r.status).toBe(200);
        expect(r.headers.get("x-ratelimit-limit")).toBe("5");
        expect(r.headers.get("x-ratelimit-remaining")).toBe(String(5 - i));
        expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      }
      const over = await freeApi("GET", "/v1/notes");
      expect(over.status).toBe(429);
      expect(errorCode(over)).toBe("rate_limit_exceeded");
      expect(over.body.retry_after).toBeGreaterThanOrEqual(1);
      // A minute after the first request, rounded up to its one-second slot.
      expect(over.body.retry_after).toBeLessThanOrEqual(61);
      expect(over.headers.get("retry-after")).toBe(String(over.body.retry_after));
      expect(over.headers.get("x-ratelimit-remaining")).toBe("0");

      // Another key has its own budget, with its own plan's limit.
      const ent = await client(limited, limited.key)("GET", "/v1/me");
      expect(ent.headers.get("x-ratelimit-limit")).toBe("8");
      expect(ent.headers.get("x-ratelimit-remaining")).toBe("7");

      // A plan change applies to the next request.
      await admin(limited.dataDir, [
        "workspaces",
        "set-plan",
        "--workspace",
        free.workspace.id,
        "--plan",
        "enterprise",
      ]);
      const upgraded = await freeApi("GET", "/v1/me");
      expect(upgraded.status).toBe(200);
      expect(upgraded.headers.get("x-ratelimit-limit")).toBe("8");
    } finally {
      await limited.stop();
    }
  });

  it("--no-rate-limit turns them off", async () => {
    for (let i = 0; i < 5; i++) expect((await api("GET", "/v1/me")).status).toBe(200);
    const r = await api("GET", "/v1/me");
    expect(r.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("the default limits are 60, 120 and 300 by plan", async () => {
    const s = await startApp();
    try {
      const make = async (p: string) =>
        client(s, (await admin(s.dataDir, ["workspaces", "create", "--name", p, "--plan", p])).key);
      for (const [p, n] of [
        ["free", "60"],
        ["pro", "120"],
        ["enterprise", "300"],
      ]) {
        const r = await (await make(p))("GET", "/v1/me");
        expect(r.headers.get("x-ratelimit-limit")).toBe(n);
      }
    } finally {
      await s.stop();
    }
  });
});
