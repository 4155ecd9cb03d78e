// notula mcp: the MCP tools over stdio, for desktop assistants. Local mode reads a
// data dir directly (no server needed); with --server or NOTULA_URL (or a profile)
// it bridges to that server's /mcp with the profile's credential.
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { globalDeps, under, type GlobalDeps } from "../../lib/command.js";
import { MCP_CLIENTS, mcpConfig, type McpClient } from "../../lib/install-config.js";
import { environment } from "../../../config/environment.js";

export const define = (program: Command) =>
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
    );

export interface Input {
  dataDir?: string;
  workspace?: string;
  user?: string;
  http?: boolean;
  port?: string;
  printConfig?: string | true;
}

/** The assistants' configurations, for --print-config. */
function printConfig(f: Input, { globals }: GlobalDeps) {
  const wanted = f.printConfig === true ? [...MCP_CLIENTS] : [f.printConfig!];
  for (const client of wanted)
    if (!(MCP_CLIENTS as readonly string[]).includes(client))
      throw new CliError(`--print-config: one of ${MCP_CLIENTS.join(", ")}, got "${client}".`, EXIT.usage);
  const configs = wanted.map((client) => ({
    client,
    ...mcpConfig(client as McpClient, { dataDir: f.dataDir, server: globals.server }),
  }));
  if (globals.json || configs.length === 1)
    process.stdout.write(
      JSON.stringify(
        configs.length === 1 ? configs[0].config : Object.fromEntries(configs.map((c) => [c.client, c.config])),
        null,
        2,
      ) + "\n",
    );
  else for (const c of configs) process.stdout.write(`# ${c.file}\n${JSON.stringify(c.config, null, 2)}\n\n`);
}

/** Serves until the assistant closes the connection (the command's output is the protocol itself). */
export const ownsOutput = true;

export async function run(f: Input, deps: GlobalDeps): Promise<void> {
  if (f.printConfig !== undefined) return printConfig(f, deps);
  const { globals } = deps;
  // A server named (--server, NOTULA_URL) or a profile named (--profile, NOTULA_PROFILE): bridge to it; else local mode.
  const remote = globals.server || environment().url || globals.profile || environment().profile;
  if (remote) await (await import("./bridge.js")).runBridge(globals);
  else await (await import("./local.js")).runLocal(f);
}

export const registerMcp = (program: Command) => under(program, globalDeps, [{ define, run, ownsOutput }]);
