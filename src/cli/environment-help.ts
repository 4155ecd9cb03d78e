// `notula help environment`: every variable notula reads, as gh's `help environment`
// lists its own. Written from the two tables that declare them (the command line's in
// config/environment.ts, the server's settings in config/settings.ts), so it cannot
// fall behind them.
import { CLI_ENVIRONMENT } from "../config/environment.js";

export async function environmentHelp(): Promise<string> {
  const { entries } = await import("../config/setting.js");
  const { SETTINGS } = await import("../config/settings.js");
  const rows = (list: Array<[string, string]>) => {
    const width = Math.min(32, Math.max(...list.map(([name]) => name.length)));
    return list.map(([name, doc]) => `  ${name.padEnd(width)}  ${doc}`).join("\n");
  };
  const cli = Object.values(CLI_ENVIRONMENT).map(({ name, doc }): [string, string] => [name, doc]);
  const server = entries(SETTINGS).flatMap(({ setting }) =>
    (setting.env ?? []).map((name): [string, string] => [name, setting.doc]),
  );
  return [
    "The client commands read:",
    rows(cli),
    "",
    "notula serve, notula mcp on a data dir and notula admin read each setting from its variable",
    "(over the config file; a flag wins over both). docs/reference/configuration.md has their defaults:",
    rows(server),
    "",
  ].join("\n");
}
