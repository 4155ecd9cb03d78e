// Ready-to-paste configuration that points at this installation of notula by absolute
// path: desktop assistants (which start programs without the user's shell PATH) and
// systemd (which wants absolute paths anyway).
import fs from "node:fs";
import path from "node:path";

/** The node binary and the notula script this process runs as, both absolute. */
export function selfCommand(): { node: string; script: string } {
  const script = process.argv[1] ? fs.realpathSync(process.argv[1]) : path.resolve("bin/notula.js");
  return { node: process.execPath, script };
}

export const MCP_CLIENTS = ["claude", "cursor", "vscode"] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** The stdio MCP server entry for each assistant's configuration file. */
export function mcpConfig(
  client: McpClient,
  opts: { dataDir?: string; server?: string },
): { file: string; config: unknown } {
  const { node, script } = selfCommand();
  const args = [script, "mcp", ...(opts.dataDir ? ["--data-dir", path.resolve(opts.dataDir)] : [])];
  // A remote server's key belongs in the assistant's own settings or `notula login`, never in a printed file.
  const env = opts.server ? { NOTULA_URL: opts.server } : undefined;
  const entry = { command: node, args, ...(env ? { env } : {}) };
  switch (client) {
    case "claude":
      return {
        file: "claude_desktop_config.json (Claude Desktop: Settings → Developer → Edit Config)",
        config: { mcpServers: { notula: entry } },
      };
    case "cursor":
      return {
        file: "~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
        config: { mcpServers: { notula: entry } },
      };
    case "vscode":
      return { file: ".vscode/mcp.json (VS Code)", config: { servers: { notula: { type: "stdio", ...entry } } } };
  }
}

/** A systemd unit running `notula serve` as an unprivileged user, restarted on failure. */
export function systemdUnit(opts: {
  dataDir: string;
  user: string;
  host: string;
  port: number;
  publicUrl?: string;
}): string {
  const { node, script } = selfCommand();
  const env = [
    `NOTULA_DATA_DIR=${path.resolve(opts.dataDir)}`,
    ...(opts.publicUrl ? [`NOTULA_PUBLIC_URL=${opts.publicUrl}`] : []),
  ];
  return `[Unit]
Description=notula meeting notes
After=network-online.target
Wants=network-online.target

[Service]
User=${opts.user}
${env.map((e) => `Environment=${e}`).join("\n")}
# Secrets (NOTULA_LLM_API_KEY, NOTULA_STT_API_KEY, …) go in this file, readable by root only.
EnvironmentFile=-/etc/notula/env
ExecStart=${node} ${script} serve --host ${opts.host} --port ${opts.port}
Restart=on-failure
RestartSec=5
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=read-only
PrivateTmp=true
ReadWritePaths=${path.resolve(opts.dataDir)}

[Install]
WantedBy=multi-user.target
`;
}
