// Limits hold across replicas: on a shared PostgreSQL database, API requests per key,
// failed sign-ins and questions being answered at once are counted once, whichever
// replica serves them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRuntime, type Runtime } from "../../src/runtime/index.js";
import { RateLimitError } from "../../src/core/errors.js";
import { client } from "../helpers/http.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { runtimeConfig, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { startChatServer } from "../helpers/vendors.js";
import { until } from "../helpers/until.js";

describe("limits across replicas on PostgreSQL", () => {
  let database: TestDatabase;
  const servers: TestServer[] = [];
  const runtimes: Runtime[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const r of runtimes) await r.close();
    await database?.drop();
  });

  it("a key's requests per minute count once across two API servers", async () => {
    const env = { NOTULA_RATE_LIMIT_ENTERPRISE: "4" };
    const a = await startServer({ args: ["--database", database.url], env });
    const b = await startServer({ args: ["--database", database.url], env, dataDir: tempDir() });
    servers.push(a, b);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client((i % 2 ? b : a).url, a.key)("GET", "/v1/me")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await client(a.url, a.key)("GET", "/v1/me");
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
  });

  it("failed sign-ins count once across replicas", async () => {
    for (const port of [1, 2])
      runtimes.push(
        await openRuntime(
          await runtimeConfig(tempDir(), { publicUrl: `http://127.0.0.1:${port}`, database: database.url }),
        ),
      );
    const [one, two] = runtimes;
    const created = await one.services.workspaces.create({
      name: "Sign-ins",
      adminEmail: "guess@example.com",
      adminName: "G",
    });
    await one.services.accounts.setPassword(created.user.id, "the-right-password");
    const attempt = (rt: Runtime, password: string) =>
      rt.services.accounts.signIn({ email: "guess@example.com", password, address: "203.0.113.9", userAgent: "t" });
    for (let i = 0; i < 10; i++) expect(await attempt(i % 2 ? two : one, `wrong-${i}`)).toBeNull();
    await expect(attempt(one, "the-right-password")).rejects.toBeInstanceOf(RateLimitError);
    await expect(attempt(two, "the-right-password")).rejects.toBeInstanceOf(RateLimitError);
  });

  it("questions answered at once count once across replicas, and a finished one frees its place", async () => {
    const [one, two] = runtimes;
    const created = await one.services.workspaces.create({
      name: "Asks",
      adminEmail: "ask@example.com",
      adminName: "A",
    });
    const p = {
      workspaceId: created.workspace.id,
      userId: created.user.id,
      keyId: "test",
      role: "admin" as const,
      scopes: new Set(["notes", "users"] as const),
      plan: "enterprise" as const,
    };
    const ask = (rt: Runtime) =>
      rt.services.ask.start(p, {
        question: "What did we decide about pricing?",
        fromDate: undefined,
        toDate: undefined,
      });
    // Each start holds its place until its answering has run: two on one replica fill
    // the person's two (limits.askPerPerson), so the other replica refuses a third.
    const first = await ask(one);
    await ask(two);
    await expect(ask(two)).rejects.toBeInstanceOf(RateLimitError);
    await expect(ask(one)).rejects.toBeInstanceOf(RateLimitError);
    await first();
    const third = await ask(two);
    await third();
  });

  it("two API servers share the questions answered at once: a third waits for neither, it is refused", async () => {
    // A model that holds each answer until the test lets it go: the questions stay in flight.
    const chat = await startChatServer({ delayMs: 60_000 });
    // A database of its own: the first server to open it makes the workspace and its key.
    const own = await createTestDatabase();
    const args = ["--database", own.url, "--llm-url", chat.url];
    const env = { NOTULA_ASK_PER_PERSON: "2" };
    const a = await startServer({ args, env, dataDir: tempDir() });
    const b = await startServer({ args, env, dataDir: tempDir() });
    try {
      const api = client(a.url, a.key);
      expect(
        (await api("POST", "/v1/notes", { title: "Pricing", userWrittenNote: "We decided the pricing." })).status,
      ).toBe(200);
      const ask = (url: string, signal?: AbortSignal) =>
        fetch(`${url}/v1/ask`, {
          method: "POST",
          headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
          body: JSON.stringify({ question: "What did we decide about pricing?" }),
          signal,
        });
      const held = new AbortController();
      const first = ask(a.url, held.signal).catch(() => null);
      const second = ask(b.url, held.signal).catch(() => null);
      // Both are with the model: each holds its place, one on each server.
      await until("both questions with the model", () => chat.arrived() >= 2, 60_000);
      const third = await ask(b.url);
      expect(third.status).toBe(429);
      expect(((await third.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
      expect((await ask(a.url)).status).toBe(429);
      held.abort();
      await Promise.all([first, second]);
    } finally {
      await chat.close();
      await a.stop();
      await b.stop();
      await own.drop();
    }
  });
});
