// An MCP session's life on the injected clock: it lasts while it is used, ends after
// an idle half hour, and a busy session does not write its record on every request
// (its recorded expiry moves on at most once a minute).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp } from "../helpers/mcp.js";
import { startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { MCP_SESSION_IDLE_MS, MCP_SESSION_TOUCH_MS } from "../../src/services/mcp-sessions.js";

describe("MCP session expiry", () => {
  let server: TestServer;
  let now = Date.parse("2026-06-01T09:00:00Z");
  beforeAll(async () => {
    server = await startServer({ args: ["--no-rate-limit"], clock: () => now });
  });
  afterAll(() => server?.stop());

  const expiries = async () =>
    (await storeQuery<{ expires_at: number | string }>(server.dataDir, "SELECT expires_at FROM mcp_sessions")).map(
      (r) => Number(r.expires_at),
    );

  it("is extended at most once a minute while in use, and lasts as long as it is used", async () => {
    const opened = now;
    const session = await connectMcp(server.url, server.key, "busy");
    expect(await expiries()).toEqual([opened + MCP_SESSION_IDLE_MS]);
    // Requests within the minute leave the record as it was.
    now += MCP_SESSION_TOUCH_MS - 1_000;
    for (let i = 0; i < 3; i++) await session.client.listTools();
    expect(await expiries()).toEqual([opened + MCP_SESSION_IDLE_MS]);
    // Past the minute, the next request extends it from that moment.
    now += 2_000;
    await session.client.listTools();
    expect(await expiries()).toEqual([now + MCP_SESSION_IDLE_MS]);
    // Used every 20 minutes for an hour and a half, it never ends.
    for (let i = 0; i < 4; i++) {
      now += 20 * 60_000;
      expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    }
    // Ended by its client: its record goes.
    await session.transport.terminateSession();
    expect(await expiries()).toEqual([]);
    await session.client.close();
  });

  it("ends after an idle half hour, or a minute sooner when its last use wrote nothing", async () => {
    const idle = await connectMcp(server.url, server.key, "idle");
    const lagging = await connectMcp(server.url, server.key, "lagging");
    const opened = now;
    // Used once within its first minute: the record keeps the expiry it was opened with.
    now += MCP_SESSION_TOUCH_MS - 1_000;
    await lagging.client.listTools();
    expect((await expiries()).filter((e) => e === opened + MCP_SESSION_IDLE_MS)).toHaveLength(2);
    now = opened + MCP_SESSION_IDLE_MS + 1_000;
    await expect(idle.client.listTools()).rejects.toThrow(/404|No such MCP session/);
    await expect(lagging.client.listTools()).rejects.toThrow(/404|No such MCP session/);
    for (const s of [idle, lagging]) await s.client.close().catch(() => {});
  });
});
