// createApp(deps): the whole HTTP surface as one hono app, built from services.
// Middleware order: security headers → body limit → authentication → rate limit → routes.
import type { DatabaseHandle } from "../runtime/index.js";
import { bodyLimit } from "hono/body-limit";
import { timeout } from "hono/timeout";
import type { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { requestId } from "hono/request-id";
import type { MiddlewareHandler } from "hono";
import type { Metrics } from "../core/metrics.js";
import type { AppEnv } from "../http/context.js";
import { metricsRoutes } from "./routes/metrics.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { Logger } from "../core/logger.js";
import type { Services } from "../services/index.js";
import type { Clock } from "../core/clock.js";
import { GatewayTimeoutError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError } from "../core/errors.js";
import { newRouter } from "../http/context.js";
import { errorResponse } from "../http/error-handler.js";
import { authenticate } from "../http/auth.js";
import { limitByAddress, rateLimit } from "../http/rate-limit.js";
import { clientAddress } from "../http/session-cookie.js";
import { renderApiReference } from "./pages/api-reference.js";
import { healthRoutes } from "./routes/health.js";
import { mcpRoutes } from "../mcp/http.js";
import { oauthRoutes } from "../oauth/routes.js";
import { createUpstreamOidc } from "../services/oauth/upstream.js";
import { inviteLinkRoutes } from "./routes/invite.js";
import type { AudioStore } from "../storage/audio-store.js";
import { pageNotFound, webApp } from "../web/index.js";
import { uploadRoutes } from "./routes/uploads.js";
import { audioRoutes } from "./routes/v1/audio.js";
import { isPieceUpload, recordingRoutes } from "./routes/v1/recordings.js";
import { folderRoutes } from "./routes/v1/folders.js";
import { templateRoutes } from "./routes/v1/templates.js";
import { actionItemRoutes } from "./routes/v1/action-items.js";
import { transcriptRoutes } from "./routes/v1/transcript.js";
import { noteHistoryRoutes } from "./routes/v1/note-history.js";
import { searchRoutes } from "./routes/v1/search.js";
import { askRoutes } from "./routes/v1/ask.js";
import { integrationRoutes } from "./routes/v1/integrations.js";
import { calendarRoutes } from "./routes/v1/calendars.js";
import { mailConfigRoutes } from "./routes/v1/mail-config.js";
import { recapRoutes } from "./routes/v1/recap.js";
import { exportRoutes } from "./routes/v1/export.js";
import { inviteRoutes } from "./routes/v1/invites.js";
import { knowledgeRoutes } from "./routes/v1/knowledge.js";
import { meRoutes } from "./routes/v1/me.js";
import { notesRoutes } from "./routes/v1/notes.js";
import { workspaceRoutes } from "./routes/v1/workspace.js";

export interface AppDeps {
  services: Services;
  audioStore: AudioStore;
  config: ResolvedConfig;
  database: Pick<DatabaseHandle, "check">;
  /** Reads the job queue (for /readyz). */
  queue: { check(): Promise<unknown> };
  version: string;
  logger: Logger;
  now: Clock;
  /** One log line per request (and its metrics); none unless given. */
  requestLog?: MiddlewareHandler<AppEnv>;
  /** Serves /metrics from this registry when given. */
  metrics?: Metrics;
}

const OPENAPI_PATH = "/v1/openapi.json";
/** OAuth client registrations one address may make in an hour. */
export const REGISTRATIONS_PER_HOUR = 20;

/** Whether a request is a person's browser asking for a page (not the API, MCP or a machine). */
function wantsPage(path: string, accept: string | undefined): boolean {
  return (
    Boolean(accept?.includes("text/html")) &&
    !/^\/(v1|mcp|healthz|readyz|metrics|docs)(\/|$)/.test(path) &&
    !path.startsWith("/.well-known/")
  );
}

export function createApp(deps: AppDeps) {
  const { services, config } = deps;
  const now = deps.now;
  const app = newRouter();

  // Every response carries X-Request-Id (the client's, if it sent a sane one), and
  // every log line about the request names it.
  app.use("*", requestId());
  if (deps.requestLog) app.use("*", deps.requestLog);
  app.onError((err, c) => errorResponse(err, c, deps.logger));
  const notFoundPage = pageNotFound({ services, publicUrl: config.publicUrl });
  app.notFound((c) => {
    // A person's browser gets a page; the API and its clients keep their JSON.
    if (wantsPage(c.req.path, c.req.header("accept"))) return notFoundPage(c.req.raw);
    const allow = allowedMethods(c.req.path);
    const err = allow.length
      ? new MethodNotAllowedError(`${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(", ")}.`, allow)
      : new NotFoundError(`No route ${c.req.method} ${c.req.path}. See ${OPENAPI_PATH} for the API.`);
    return errorResponse(err, c, deps.logger);
  });

  app.use("*", secureHeaders({ referrerPolicy: "no-referrer" }));
  app.route("/", healthRoutes(deps.database, deps.audioStore, deps.queue));
  if (deps.metrics) app.route("/", metricsRoutes(deps.metrics));
  app.route(
    "/",
    uploadRoutes(services, {
      maxConcurrent: config.limits.maxConcurrentUploads,
      idleTimeoutMs: config.limits.uploadIdleTimeoutMs,
    }),
  );
  const { publicUrl } = config;
  const upstream = config.oidc ? createUpstreamOidc(config.oidc, publicUrl, services.pending) : undefined;
  if (config.rateLimit.enabled) {
    // Before the routes they guard: a route that answers does not call what follows it.
    const perAddress = limitByAddress("address", config.rateLimit.perAddressPerMinute, services.limits, clientAddress);
    app.use("/mcp/oauth/*", perAddress);
    // Registering a client stores it: far fewer of those than of other calls (an MCP client registers once).
    app.use(
      "/mcp/oauth/register",
      limitByAddress("oauth-register", REGISTRATIONS_PER_HOUR, services.limits, clientAddress, 3600_000),
    );
    app.use("/oauth/*", perAddress);
  }
  app.route("/", oauthRoutes(services.oauth, services.accounts, publicUrl, deps.logger, upstream));
  app.route("/", inviteLinkRoutes(services, publicUrl));
  app.route(
    "/",
    mcpRoutes(services, {
      publicUrl,
      logger: deps.logger,
      sessions: { perKey: config.limits.mcpSessionsPerKey, perServer: config.limits.mcpSessionsPerServer },
      rateLimit: config.rateLimit.enabled ? { ...config.rateLimit, now } : undefined,
    }),
  );
  app.route(
    "/",
    webApp({
      services,
      audioStore: deps.audioStore,
      upstream,
      publicUrl,
      maxUploadBytes: config.maxUploadBytes,
      logger: deps.logger,
    }),
  );

  const limitBody = bodyLimit({
    maxSize: config.maxJsonBodyBytes,
    onError: () => {
      throw new PayloadTooLargeError(`The request body is larger than ${config.maxJsonBodyBytes} bytes.`);
    },
  });
  // GET and HEAD carry no body. Skipping them matters: bodyLimit's look at the body
  // makes @hono/node-server build a full fetch Request (AbortController, Headers),
  // which cost more than a whole list query.
  app.use("/v1/*", (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" || isPieceUpload(c.req.method, c.req.path)
      ? next()
      : limitBody(c, next),
  );
  // An answer that takes longer than this helps nobody: the client gets 504 in the
  // usual error shape (the work itself is not interrupted, and writes stay whole).
  app.use(
    "/v1/*",
    timeout(
      config.limits.requestTimeoutMs,
      () =>
        new GatewayTimeoutError(
          `The request took longer than ${config.limits.requestTimeoutMs} ms; try a narrower one.`,
        ) as unknown as HTTPException,
    ),
  );
  const auth = authenticate(services.authentication);
  app.use("/v1/*", (c, next) => (c.req.path === OPENAPI_PATH ? next() : auth(c, next)));
  if (config.rateLimit.enabled) {
    const limiter = rateLimit(config.rateLimit.perMinute, services.limits);
    app.use("/v1/*", (c, next) => (c.req.path === OPENAPI_PATH ? next() : limiter(c, next)));
  }

  app.route("/", audioRoutes(services));
  app.route("/", recordingRoutes(services));
  app.route("/", notesRoutes(services));
  app.route("/", exportRoutes(services, config.publicUrl));
  app.route("/", folderRoutes(services));
  app.route("/", inviteRoutes(services));
  app.route("/", workspaceRoutes(services));
  app.route("/", integrationRoutes(services));
  app.route("/", calendarRoutes(services));
  app.route("/", recapRoutes(services));
  app.route("/", mailConfigRoutes(services));
  app.route("/", knowledgeRoutes(services));
  app.route("/", meRoutes(services));
  app.route("/", templateRoutes(services));
  app.route("/", actionItemRoutes(services));
  app.route("/", transcriptRoutes(services));
  app.route("/", noteHistoryRoutes(services));
  app.route("/", searchRoutes(services));
  app.route("/", askRoutes(services));

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API key (ntl_…) as 'Authorization: Bearer <key>'; 'X-API-Key: <key>' is accepted too.",
  });
  const openApiConfig = () => ({
    openapi: "3.1.0",
    info: {
      title: "notula",
      version: deps.version,
      description:
        "Self-hosted meeting notes. Operations marked x-notula-extension are additions to the interface specification.",
    },
    servers: [{ url: config.publicUrl }],
  });
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  const openApiDocument = () => (document ??= app.getOpenAPI31Document(openApiConfig()));
  app.get(OPENAPI_PATH, (c) => c.json(openApiDocument()));
  let page: string | undefined;
  app.get("/docs", (c) => c.html((page ??= renderApiReference(openApiDocument()))));

  // For 405: which methods the router knows for a path it could not dispatch.
  let routeTable: { method: string; pattern: RegExp }[] | undefined;
  function allowedMethods(path: string): string[] {
    routeTable ??= app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+")}/?$`) }));
    const methods = new Set(routeTable.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  }

  return app;
}

export type App = ReturnType<typeof createApp>;
