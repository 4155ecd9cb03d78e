// `notula mcp` bridged: stdio on one side, a server's /mcp on the other, with the
// API key or the browser sign-in the selected profile holds.
import type { SelectionFlags } from "../../lib/profiles.js";

export async function runBridge(flags: SelectionFlags) {
  const { mcpBearerFor } = await import("../../lib/credential-for.js");
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
  // The assistant went away: end the session on the server and stop, as local mode does
  // (the HTTP side would otherwise hold the process open on its connections).
  process.stdin.once("end", () => {
    void remote
      .terminateSession()
      .catch(() => {})
      .finally(() => process.exit(0));
  });
}
