// The fast tier: the whole app (API, web, MCP, OAuth) over a real database, called
// through app.request() with no socket and no port, for what a route decides
// (validation, errors, scopes, shapes). The same configuration, bootstrap and
// routes as `notula serve` (src/server/start.ts `assemble`); the workers are defined
// but not started. Tests of what only a socket or a process shows use server.ts.
import { Command } from "commander";
import { client, type Client } from "./http.js";
import { databaseFor, serverEnv, tempDir, type ServerOptions } from "./server.js";

export interface TestApp {
  /** The public URL the app believes it has (links it signs carry it); nothing listens there. */
  url: string;
  key: string;
  dataDir: string;
  /** The services the routes call: for MCP tool tests over the SDK's in-memory transport. */
  services: import("../../src/services/index.js").Services;
  /** fetch() into the app: an absolute URL on `url`, or a path. */
  fetch(input: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

export async function startApp(opts: ServerOptions = {}): Promise<TestApp> {
  const { serveOptions } = await import("../../src/cli/commands/serve/index.js");
  const { loadConfig } = await import("../../src/config/load.js");
  const { resolveConfig } = await import("../../src/config/resolve.js");
  const { assemble } = await import("../../src/server/start.js");
  const { createLogger } = await import("../../src/core/logger.js");
  const dataDir = opts.dataDir ?? tempDir();
  const database = await databaseFor(dataDir);
  const cmd = serveOptions(new Command()).exitOverride();
  cmd.parse(["--data-dir", dataDir, ...(database ? ["--database", database] : []), ...(opts.args ?? [])], {
    from: "user",
  });
  const config = resolveConfig(loadConfig(cmd.opts(), serverEnv(opts)), {
    address: "127.0.0.1",
    family: "IPv4",
    port: 8787,
  });
  const lines: string[] = [];
  const { app, runtime } = await assemble(config, {
    version: "test",
    out: (l) => lines.push(l),
    logger: createLogger({ level: "warn" }),
  });
  const key = /Admin API key[^:]*: (ntl_\S+)/.exec(lines.join("\n"))?.[1] ?? "";
  const url = config.publicUrl;
  return {
    url,
    key,
    dataDir,
    services: runtime.services,
    fetch: async (input, init) => {
      // A request here may need no I/O at all: without a turn of the event loop between
      // requests, a test's long run of them starves the loop (and vitest's messages).
      await new Promise((resolve) => setImmediate(resolve));
      return app.request(input.startsWith("/") ? url + input : input, init);
    },
    stop: () => runtime.close(),
  };
}

/** The JSON client of http.ts, through app.request(). */
export const appClient = (app: TestApp, key?: string): Client => client(app, key);
