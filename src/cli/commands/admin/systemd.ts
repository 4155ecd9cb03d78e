// notula admin systemd
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { dataDirOption, type AdminDeps, type DataDirFlags } from "./deps.js";

export const define = (admin: Command) =>
  dataDirOption(
    admin
      .command("systemd")
      .description(
        "Print a systemd unit that runs `notula serve` as a service, with this installation's absolute paths",
      )
      .option("--user <name>", "the system user it runs as", "notula")
      .option("--host <host>", "the address to listen on", "127.0.0.1")
      .option("--port <port>", "the port", "8787")
      .option("--public-url <url>", "the URL people reach it at (behind a reverse proxy)"),
  ).addHelpText(
    "after",
    "\nExample:\n  notula admin systemd --data-dir /var/lib/notula | sudo tee /etc/systemd/system/notula.service",
  );

export interface Input extends DataDirFlags {
  user: string;
  host: string;
  port: string;
  publicUrl?: string;
}

/** The unit file's text (a unit file, never JSON). */
export async function run(f: Input): Promise<string> {
  const { loadConfig } = await import("../../../config/load.js");
  const { systemdUnit } = await import("../../lib/install-config.js");
  const port = Number(f.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new CliError("--port must be a port number from 1 to 65535.", EXIT.usage);
  const dataDir = loadConfig({ dataDir: f.dataDir }).dataDir;
  return systemdUnit({ dataDir, user: f.user, host: f.host, port, publicUrl: f.publicUrl });
}

export const ownsOutput = true;

export const render = (unit: string, _f: Input, deps: AdminDeps) => deps.io.write(unit);
