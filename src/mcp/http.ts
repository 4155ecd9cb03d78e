// /mcp: the MCP server over streamable HTTP, inside the hono app. One McpServer and
// transport per session, bound to the principal that opened it. Sessions are recorded
// in the database: a request for a session opened on another replica is served here
// by a transport made for that one request.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono, type Context } from "hono";
import type { Services } from "../services/index.js";
import type { Principal } from "../core/principal.js";
import { presentedToken } from "../core/credentials.js";
import type { Logger } from "../core/logger.js";
import { createMcpServer, MCP_SERVER_INFO, toolListing } from "./server.js";
import type { Config } from "../config/schema.js";
import type { Clock } from "../core/clock.js";
import { MCP_SESSION_IDLE_MS } from "../services/mcp-sessions.js";
import { clientAddress } from "../http/session-cookie.js";
import { spendPerMinute } from "../http/rate-limit.js";

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  /** The principal of the request being answered: set afresh by each request's authentication. */
  caller: { principal: Principal };
  /** Who opened it: the same credential, and so the same workspace, must use it. */
  keyId: string;
  lastSeenAt: number;
}

const jsonError = (c: Context, status: 400 | 401 | 403 | 404 | 429, code: string, message: string) =>
  c.json({ jsonrpc: "2.0", error: { code: -32000, message: `${code}: ${message}` }, id: null }, status);

export interface McpRouteOptions {
  publicUrl: string;
  logger: Logger;
  /**
   * Local mode (`notula mcp --http`): everyone who can reach the loopback port acts
   * as this principal, with no credential. Host and Origin are then checked strictly,
   * so that a web page cannot reach the server through DNS rebinding.
   */
  localPrincipal?: Principal;
  /** Open sessions kept per credential and in all (the settings table's limits.mcpSessions*). */
  sessions: { perKey: number; perServer: number };
  /** The REST limits, applied here too: a key's budget covers both; unauthenticated calls count per address. */
  rateLimit?: Pick<Config["rateLimit"], "perMinute" | "perAddressPerMinute"> & { now: Clock };
}

export function mcpRoutes(services: Services, opts: McpRouteOptions) {
  const app = new Hono();
  const sessions = new Map<string, Session>();
  const caps = opts.sessions;
  let listing: ReturnType<typeof toolListing> | undefined;
  const listed = () => (listing ??= toolListing(services, opts.logger));

  function allowedOrigin(origin: string | undefined): boolean {
    if (!origin) return true; // not a browser
    try {
      const o = new URL(origin);
      const self = new URL(opts.publicUrl);
      if (o.origin === self.origin) return true;
      // Local tools (inspectors, desktop apps) on loopback may call a loopback server.
      const loopback = (h: string) => h === "localhost" || h === "127.0.0.1" || h === "[::1]";
      return loopback(o.hostname) && loopback(self.hostname);
    } catch {
      return false;
    }
  }

  function allowedHost(host: string | undefined): boolean {
    return host === new URL(opts.publicUrl).host || host === `localhost:${new URL(opts.publicUrl).port}`;
  }

  const now = opts.rateLimit?.now ?? Date.now;

  /**
   * Transports live in memory until their client ends them, which many never do: the
   * idle ones (past the database record's expiry) are closed, and a credential over
   * its cap loses its least recently used. Run as sessions open, so no timer is needed.
   */
  async function prune(keyId: string) {
    const t = now();
    for (const [id, s] of sessions) if (t - s.lastSeenAt > MCP_SESSION_IDLE_MS) await end(id);
    const own = [...sessions].filter(([, s]) => s.keyId === keyId).sort((a, b) => a[1].lastSeenAt - b[1].lastSeenAt);
    for (const [id] of own.slice(0, Math.max(0, own.length - caps.perKey))) await end(id);
    if (sessions.size > caps.perServer) {
      const all = [...sessions].sort((a, b) => a[1].lastSeenAt - b[1].lastSeenAt);
      for (const [id] of all.slice(0, sessions.size - caps.perServer)) await end(id);
    }
  }
  async function end(id: string) {
    const s = sessions.get(id);
    sessions.delete(id);
    await services.mcpSessions.close(id).catch(() => {});
    await s?.transport.close().catch(() => {});
  }

  const retryLater = (c: Context, seconds: number) => {
    c.header("Retry-After", String(seconds));
    return jsonError(c, 429, "rate_limit_exceeded", `Too many requests; retry in ${seconds} s.`);
  };

  app.all("/mcp", async (c) => {
    if (opts.localPrincipal && !allowedHost(c.req.header("host")))
      return jsonError(c, 403, "forbidden", "Host not allowed.");
    if (!allowedOrigin(c.req.header("origin"))) return jsonError(c, 403, "forbidden", "Origin not allowed.");
    // API keys work here as on REST; OAuth access tokens work here only.
    const token = presentedToken(c.req.header("authorization"), c.req.header("x-api-key"));
    const principal = opts.localPrincipal ?? (token ? await services.authentication.mcp(token) : null);
    const limits = opts.rateLimit;
    if (!principal && limits) {
      const spent = await spendPerMinute(`address:${clientAddress(c)}`, limits.perAddressPerMinute, services.limits);
      if (!spent.ok) return retryLater(c, spent.retryAfterSec);
    }
    if (principal && limits && !opts.localPrincipal) {
      const spent = await spendPerMinute(`api:${principal.keyId}`, limits.perMinute[principal.plan], services.limits);
      if (!spent.ok) return retryLater(c, spent.retryAfterSec);
    }
    if (!principal) {
      c.header(
        "WWW-Authenticate",
        `Bearer resource_metadata="${opts.publicUrl}/.well-known/oauth-protected-resource/mcp"`,
      );
      return jsonError(
        c,
        401,
        "unauthorized",
        "Send an API key or an OAuth access token as 'Authorization: Bearer <token>'.",
      );
    }

    if (principal.scopes.size === 0) {
      // A token without "read" (say, openid alone) opens no tool: tell the client which scope to ask for.
      c.header(
        "WWW-Authenticate",
        `Bearer error="insufficient_scope", scope="read", resource_metadata="${opts.publicUrl}/.well-known/oauth-protected-resource/mcp"`,
      );
      return jsonError(c, 403, "forbidden", "The token's scope opens no tool here; ask for the read scope.");
    }

    const method = c.req.method;
    if (method === "GET" && !(c.req.header("accept") ?? "").includes("text/event-stream")) {
      const tools = (await listed()).tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      }));
      return c.json({ ...MCP_SERVER_INFO, transport: "streamable-http", tools });
    }

    const sessionId = c.req.header("mcp-session-id");
    if (sessionId) {
      // Unknown, ended, expired, or another principal's: all read as "no such session".
      if (!(await services.mcpSessions.resume(sessionId, principal.keyId))) {
        await sessions
          .get(sessionId)
          ?.transport.close()
          .catch(() => {});
        return jsonError(c, 404, "not_found", "No such MCP session; initialize a new one.");
      }
      if (method === "DELETE") await services.mcpSessions.close(sessionId);
      const session = sessions.get(sessionId);
      if (session) {
        session.lastSeenAt = now();
        session.caller.principal = principal;
        return session.transport.handleRequest(c.req.raw);
      }
      if (method === "DELETE") return c.body(null, 200);
      // Opened on another replica (or before a restart): this request alone, statelessly.
      const server = createMcpServer(services, principal, opts.logger, { listing: listed() });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      return transport.handleRequest(c.req.raw);
    }
    if (method !== "POST")
      return jsonError(c, 400, "bad_request", "Send an initialize request first; it opens a session.");

    // Answers are JSON, not an event stream per request: no tool sends notifications
    // while it runs, and a stream costs each call its own ReadableStream and framing.
    const caller = { principal };
    const server = createMcpServer(services, () => caller.principal, opts.logger, { listing: listed() });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: async (id) => {
        sessions.set(id, { transport, caller, keyId: principal.keyId, lastSeenAt: now() });
        await services.mcpSessions.open(id, principal.keyId);
        await prune(principal.keyId);
      },
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });

  return app;
}
