// `notula mcp` in local mode: the MCP tools over a data dir read directly (no server
// needed), on stdio or on a loopback HTTP port.
import { CliError, EXIT } from "../../exit.js";
import { environment } from "../../../config/environment.js";

export async function runLocal(flags: {
  dataDir?: string;
  workspace?: string;
  user?: string;
  http?: boolean;
  port?: string;
}) {
  const { loadConfig } = await import("../../../config/load.js");
  const { resolveConfig } = await import("../../../config/resolve.js");
  const { openRuntime } = await import("../../../runtime/index.js");
  const { SCOPES } = await import("../../../core/principal.js");
  const { createLogger } = await import("../../../core/logger.js");
  // The same search as the server's: the index it built, queried with the same model.
  const config = loadConfig({ dataDir: flags.dataDir });
  const logger = createLogger({ level: "warn" });
  // Over HTTP the address is known only once listening; requests wait for the runtime.
  const http = flags.http ? await listenLoopback(Number(flags.port ?? 0)) : null;
  // Links go to the web app: the server running on this data dir, where one is.
  const { runningServerUrl } = await import("../../../storage/data-dir-lock.js");
  const publicUrl = runningServerUrl(config.dataDir) ?? config.publicUrl;
  const rt = await openRuntime(resolveConfig({ ...config, publicUrl }), { logger });
  const workspaces = await rt.services.workspaces.list();
  const workspaceId =
    flags.workspace ?? environment().workspace ?? (workspaces.length === 1 ? workspaces[0].id : undefined);
  if (!workspaceId)
    throw new CliError(
      workspaces.length
        ? `The data dir has ${workspaces.length} workspaces: choose one with --workspace or NOTULA_WORKSPACE.`
        : `No workspace in ${config.dataDir}: run \`notula serve\` once, or point --data-dir at your data.`,
      EXIT.usage,
    );
  const workspace = workspaces.find((w) => w.id === workspaceId);
  if (!workspace) throw new CliError(`No workspace ${workspaceId} in ${config.dataDir}.`, EXIT.notFound);
  const userId = flags.user ?? environment().user ?? (await rt.services.workspaces.defaultUser(workspaceId));
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
    const { mcpRoutes } = await import("../../../mcp/http.js");
    http.serve(
      mcpRoutes(rt.services, {
        publicUrl: http.url,
        logger,
        localPrincipal: principal,
        sessions: { perKey: config.limits.mcpSessionsPerKey, perServer: config.limits.mcpSessionsPerServer },
      }).fetch,
    );
    process.stdout.write(`notula mcp listening on ${http.url}/mcp\n`);
    return;
  }
  const { createMcpServer } = await import("../../../mcp/server.js");
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
