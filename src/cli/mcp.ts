// `notula mcp`: the MCP tools over stdio, for desktop assistants. Local mode reads a
// data dir directly (no server needed); with --server or NOTULA_URL it bridges to
// that server's /mcp with an API key.
import type { Command } from "commander";
import { CliError, EXIT } from "./exit.js";
import { MCP_CLIENTS, mcpConfig, type McpClient } from "./install-config.js";

async function runLocal(flags: { dataDir?: string; workspace?: string; user?: string; http?: boolean; port?: string }) {
  const { loadConfig } = await import("../config/load.js");
  const { resolvePublicUrl } = await import("../config/resolve.js");
  const { openRuntime } = await import("../runtime.js");
  const { SCOPES } = await import("../core/principal.js");
  const { createLogger } = await import("../core/logger.js");
  const { selectEmbedder } = await import("../ai/select.js");
  // The same search as the server's: the index it built, queried with the same model.
  const config = loadConfig({ dataDir: flags.dataDir });
  const logger = createLogger({ level: "warn" });
  // Over HTTP the address is known only once listening; requests wait for the runtime.
  const http = flags.http ? await listenLoopback(Number(flags.port ?? 0)) : null;
  const rt = await openRuntime(config.dataDir, {
    publicUrl: http?.url ?? resolvePublicUrl(config),
    embedder: selectEmbedder(config.embeddings),
    storage: config.storage,
    database: config.database,
    secretKey: config.secretKey,
    logger,
  });
  const workspaces = await rt.services.workspaces.list();
  const workspaceId =
    flags.workspace ?? process.env.NOTULA_WORKSPACE ?? (workspaces.length === 1 ? workspaces[0].id : undefined);
  if (!workspaceId)
    throw new CliError(
      workspaces.length
        ? `The data dir has ${workspaces.length} workspaces: choose one with --workspace or NOTULA_WORKSPACE.`
        : `No workspace in ${config.dataDir}: run \`notula serve\` once, or point --data-dir at your data.`,
      EXIT.usage,
    );
  const workspace = workspaces.find((w) => w.id === workspaceId);
  if (!workspace) throw new CliError(`No workspace ${workspaceId} in ${config.dataDir}.`, EXIT.notFound);
  const userId = flags.user ?? process.env.NOTULA_USER ?? (await rt.services.workspaces.defaultUser(workspaceId));
  const member = await rt.services.directory.memberOf(workspaceId, userId);
  if (!member)
    throw new CliError(
      `User ${userId} is not a member of workspace ${workspaceId}: pass --user with a member's id.`,
      EXIT.notFound,
    );
  // The local user acts as that member, with what their role lets them see; the tools only read.
  const principal = {
    workspaceId,
    userId,
    keyId: "local-stdio",
    scopes: new Set(SCOPES),
    plan: workspace.plan,
    role: member.role,
  };
  if (http) {
    const { mcpRoutes } = await import("../mcp/http.js");
    http.serve(mcpRoutes(rt.services, { publicUrl: http.url, logger, localPrincipal: principal }).fetch);
    process.stdout.write(`notula mcp listening on ${http.url}/mcp\n`);
    return;
  }
  const { createMcpServer } = await import("../mcp/server.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  await createMcpServer(rt.services, principal, logger).connect(new StdioServerTransport());
}

/** Local mode over streamable HTTP on loopback only, for tools that cannot spawn a process. */
async function listenLoopback(port: number) {
  const { serve } = await import("@hono/node-server");
  let handler: (req: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const url = await new Promise<string>((resolve) => {
    serve({ fetch: (req) => handler(req), hostname: "127.0.0.1", port }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  return { url, serve: (fetch: typeof handler) => void (handler = fetch) };
}

async function runBridge(flags: import("./lib/profiles.js").SelectionFlags) {
  const { mcpBearerFor } = await import("./lib/credential-for.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  // An explicit key; else what the selected profile signed in with (see credential-for.ts).
  const { bearer, selection } = await mcpBearerFor(flags);
  const serverUrl = selection.server;
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(new URL("/mcp", serverUrl), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  // A message proxy: whatever the assistant sends goes to the server, and back.
  local.onmessage = (m) => void remote.send(m).catch((e) => process.stderr.write(`notula mcp: ${e.message}\n`));
  remote.onmessage = (m) => void local.send(m);
  remote.onerror = (e) => process.stderr.write(`notula mcp: ${e.message}\n`);
  local.onclose = () => void remote.close();
  remote.onclose = () => void local.close();
  await remote.start();
  await local.start();
}

export function registerMcp(program: Command) {
  program
    .command("mcp")
    .description("Serve the MCP tools over stdio, for desktop AI assistants")
    .option("--data-dir <dir>", "local mode: the data dir to read (NOTULA_DATA_DIR)")
    .option("--workspace <id>", "local mode: the workspace (NOTULA_WORKSPACE; default: the only one)")
    .option("--user <id>", "local mode: whose view of the notes (NOTULA_USER; default: the first admin)")
    .option("--http", "local mode over streamable HTTP on 127.0.0.1 instead of stdio (no credential; loopback only)")
    .option("--port <port>", "with --http: the port (default: any free one)")
    .option(
      "--print-config [client]",
      `print a ready configuration for a desktop assistant (${MCP_CLIENTS.join(", ")}; default: all), with this installation's absolute paths`,
    )
    .addHelpText(
      "after",
      "\nExamples:\n  notula mcp --print-config claude       # paste into claude_desktop_config.json\n  notula mcp --print-config vscode --server https://notes.example.com\nWith --server URL (NOTULA_URL) or --profile NAME (NOTULA_PROFILE) it bridges to that server's /mcp, with --api-key, NOTULA_API_KEY, or the credential the profile signed in with (`notula login`).",
    )
    .action(async (_f, cmd: Command) => {
      const flags = cmd.optsWithGlobals();
      if (flags.printConfig !== undefined) {
        const wanted = flags.printConfig === true ? [...MCP_CLIENTS] : [flags.printConfig];
        for (const client of wanted)
          if (!(MCP_CLIENTS as readonly string[]).includes(client))
            throw new CliError(`--print-config: one of ${MCP_CLIENTS.join(", ")}, got "${client}".`, EXIT.usage);
        const configs = wanted.map((client) => ({
          client,
          ...mcpConfig(client as McpClient, { dataDir: flags.dataDir, server: flags.server }),
        }));
        if (flags.json || configs.length === 1)
          process.stdout.write(
            JSON.stringify(
              configs.length === 1 ? configs[0].config : Object.fromEntries(configs.map((c) => [c.client, c.config])),
              null,
              2,
            ) + "\n",
          );
        else for (const c of configs) process.stdout.write(`# ${c.file}\n${JSON.stringify(c.config, null, 2)}\n\n`);
        return;
      }
      // A server named (--server, NOTULA_URL) or a profile named (--profile, NOTULA_PROFILE): bridge to it; else local mode.
      const remote = flags.server || process.env.NOTULA_URL || flags.profile || process.env.NOTULA_PROFILE;
      if (remote) await runBridge(flags);
      else await runLocal(flags);
    });
}
