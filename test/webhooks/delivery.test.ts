// Webhook delivery to a real receiver on loopback: signatures checked with the
// standardwebhooks package, retries, timeouts, redirects, auto-disable, durability.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { startServerProcess, type ProcessTestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver whose answer for each path is scripted: a list of statuses (or delays), last one repeats. */
async function startReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, (number | { delayMs: number; status: number })[]>();
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    received.push({ path: req.url!, headers: req.headers, body });
    const script = scripts.get(req.url!) ?? [200];
    const step = script.length > 1 ? script.shift()! : script[0];
    const { status, delayMs } = typeof step === "number" ? { status: step, delayMs: 0 } : step;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (status >= 300 && status < 400) res.writeHead(status, { location: `/redirected${req.url}` }).end();
    else res.writeHead(status).end(status < 300 ? "ok" : "no");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    script: (path: string, steps: (number | { delayMs: number; status: number })[]) => scripts.set(path, [...steps]),
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let server: ProcessTestServer;
let api: Client;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServerProcess({
    args: ["--no-rate-limit", "--allow-private-webhooks"],
    env: {
      NOTULA_WEBHOOK_RETRY_SCHEDULE_MS: "200,400,800",
      NOTULA_WEBHOOK_TIMEOUT_MS: "1000",
      NOTULA_WEBHOOK_DISABLE_AFTER: "3",
    },
  });
  api = client(server.url, server.key);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

async function register(path: string) {
  const r = await api("POST", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + path });
  expect(r.status).toBe(200);
  return r.body.secret as string;
}

// Generous: other test files and their servers share the machine and slow it down.
const waitFor = <T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000) =>
  until(() => `it; the server said:\n${server.output().slice(-4000)}`, probe, timeoutMs);

async function deliveriesFor(path: string) {
  const r = await api("GET", "/v1/integrations/automation/deliveries?limit=100");
  return (r.body.items as any[]).filter((d) => d.hookUrl.endsWith(path));
}

function verify(secret: string, r: Received) {
  return new Webhook(secret).verify(r.body, {
    "webhook-id": r.headers["webhook-id"] as string,
    "webhook-timestamp": r.headers["webhook-timestamp"] as string,
    "webhook-signature": r.headers["webhook-signature"] as string,
  }) as any;
}

describe("webhook delivery", () => {
  it("note.created reaches every registration, signed by the Standard Webhooks scheme", async () => {
    const secretA = await register("/a");
    const secretB = await register("/b");
    const { note } = (await api("POST", "/v1/notes", { title: "Hello hooks" })).body;
    const [a] = await waitFor(() => (receiver.at("/a").length ? receiver.at("/a") : undefined));
    const [b] = await waitFor(() => (receiver.at("/b").length ? receiver.at("/b") : undefined));
    const event = verify(secretA, a);
    expect(verify(secretB, b)).toEqual(event);
    expect(event).toMatchObject({
      type: "note.created",
      workspaceId: expect.stringMatching(/^ws_/),
      payload: { note: { id: note.id, title: "Hello hooks" } },
    });
    expect(event.eventId).toBe(a.headers["webhook-id"]);
    expect(Date.parse(event.timestamp)).not.toBeNaN();
    expect(a.headers["content-type"]).toBe("application/json");
    // A wrong secret does not verify.
    expect(() => verify(`whsec_${Buffer.alloc(24, 7).toString("base64")}`, a)).toThrow();
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + "/a" });
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + "/b" });
  });

  it("note.completed follows when processing finishes", async () => {
    const secret = await register("/done");
    const { note } = (
      await api("POST", "/v1/notes", {
        title: "To summarize",
        transcripts: [
          {
            speaker: "Ana",
            text: "We agreed to launch the beta on Monday.",
            startTimestamp: "00:00",
            endTimestamp: "00:04",
          },
        ],
      })
    ).body;
    const events = await waitFor(() => {
      const got = receiver.at("/done").map((r) => verify(secret, r));
      return got.some((e) => e.type === "note.completed") ? got : undefined;
    });
    expect(events.map((e) => e.type)).toEqual(["note.created", "note.completed"]);
    expect(events[1].payload.note).toMatchObject({
      id: note.id,
      status: "completed",
      summary: expect.stringMatching(/beta/),
    });
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + "/done" });
  });

  it("retries a 500 on schedule with the same event id, then succeeds; the log shows it", async () => {
    receiver.script("/flaky", [500, 503, 200]);
    const secret = await register("/flaky");
    await api("POST", "/v1/notes", { title: "Flaky" });
    const [d] = await waitFor(async () => {
      const ds = await deliveriesFor("/flaky");
      return ds[0]?.status === "delivered" ? ds : undefined;
    });
    const hits = receiver.at("/flaky");
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers["webhook-id"])).size).toBe(1);
    for (const h of hits) expect(verify(secret, h).type).toBe("note.created");
    expect(d).toMatchObject({
      status: "delivered",
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      eventId: hits[0].headers["webhook-id"],
      type: "note.created",
    });
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + "/flaky" });
  });

  it("a receiver slower than the timeout is retried", async () => {
    receiver.script("/slow", [{ delayMs: 2500, status: 200 }, 200]);
    await register("/slow");
    await api("POST", "/v1/notes", { title: "Slow" });
    const [d] = await waitFor(async () => {
      const ds = await deliveriesFor("/slow");
      return ds[0]?.status === "delivered" ? ds : undefined;
    });
    expect(d.attempts).toBe(2);
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + "/slow" });
  });

  it("does not follow redirects and gives up on them", async () => {
    receiver.script("/moved", [302]);
    await register("/moved");
    await api("POST", "/v1/notes", { title: "Moved" });
    const [d] = await waitFor(async () => {
      const ds = await deliveriesFor("/moved");
      return ds[0]?.status === "failed" ? ds : undefined;
    });
    expect(d).toMatchObject({
      attempts: 1,
      lastStatusCode: 302,
      lastError: expect.stringMatching(/redirects are not followed/),
    });
    expect(receiver.at("/redirected/moved")).toEqual([]);
    await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: receiver.base + "/moved" });
  });

  it("disables a registration after consecutive failed events, then sends it nothing", async () => {
    receiver.script("/broken", [410]);
    await register("/broken");
    for (let i = 0; i < 3; i++) await api("POST", "/v1/notes", { title: `Broken ${i}` });
    await waitFor(async () => {
      const list = (await api("GET", "/v1/integrations/automation/webhook")).body.webhooks;
      return list.find((w: any) => w.hookUrl.endsWith("/broken") && w.disabled);
    });
    const before = receiver.at("/broken").length;
    await api("POST", "/v1/notes", { title: "After disable" });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at("/broken").length).toBe(before);
  });

  it("redelivery sends the same event again, enables a disabled registration, and counts attempts over its life", async () => {
    // The registration disabled by the test before: its receiver is fixed now.
    receiver.script("/broken", [200]);
    const failed = (await deliveriesFor("/broken")).find((d) => d.status === "failed");
    expect(failed).toBeTruthy();
    const before = receiver.at("/broken").length;
    const r = await api("POST", `/v1/integrations/automation/deliveries/${failed.id}/redeliver`);
    expect(r.status).toBe(200);
    const again = await waitFor(() => receiver.at("/broken").slice(before)[0]);
    expect(again.headers["webhook-id"]).toBe(failed.eventId);
    const done = await waitFor(async () =>
      (await deliveriesFor("/broken")).find((d) => d.id === failed.id && d.status === "delivered"),
    );
    expect(done.attempts).toBe(failed.attempts + 1);
    const hook = (await api("GET", "/v1/integrations/automation/webhook")).body.webhooks.find((w: any) =>
      w.hookUrl.endsWith("/broken"),
    );
    expect(hook).toMatchObject({ disabled: false, consecutiveFailures: 0 });
    // New events reach it again.
    await api("POST", "/v1/notes", { title: "Fixed receiver" });
    await waitFor(() =>
      receiver.at("/broken").find((x) => JSON.parse(x.body).payload.note?.title === "Fixed receiver"),
    );
  });

  it("redelivery of an unknown delivery is 404, of one still pending 409", async () => {
    expect((await api("POST", "/v1/integrations/automation/deliveries/dlv_nope/redeliver")).status).toBe(404);
    receiver.script("/slow-pending", [{ delayMs: 3000, status: 200 }]);
    await register("/slow-pending");
    await api("POST", "/v1/notes", { title: "Pending one" });
    const pending = await waitFor(async () =>
      (await deliveriesFor("/slow-pending")).find((d) => d.status === "pending"),
    );
    const r = await api("POST", `/v1/integrations/automation/deliveries/${pending.id}/redeliver`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("conflict");
  });

  it("a pending delivery survives kill -9 and arrives once after the restart", async () => {
    receiver.script("/durable", [500, 500, 500, 200]);
    const secret = await register("/durable");
    await api("POST", "/v1/notes", { title: "Durable" });
    await waitFor(() => (receiver.at("/durable").length >= 1 ? true : undefined));
    await server.kill9();
    await server.restart();
    api = client(server.url, server.key);
    const [d] = await waitFor(async () => {
      const ds = await deliveriesFor("/durable");
      return ds[0]?.status === "delivered" ? ds : undefined;
    });
    // Once accepted, never sent again: the fourth attempt was the first 200, and the last.
    await new Promise((r) => setTimeout(r, 1000));
    const hits = receiver.at("/durable");
    expect(hits).toHaveLength(4);
    expect(new Set(hits.map((h) => h.headers["webhook-id"])).size).toBe(1);
    expect(verify(secret, hits[3]).type).toBe("note.created");
    expect(d.status).toBe("delivered");
  });
});
