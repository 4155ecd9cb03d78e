// The notula command. Commands load their modules lazily, so that `--version`
// and client commands never load the server, SQLite or the AI stack.
import { CommanderError } from "commander";
import { CliError, EXIT } from "./exit.js";
import { createProgram } from "./program.js";

const program = await createProgram(process.argv.slice(2));
for (const warning of await (await import("./lib/environment-check.js")).unreadVariables())
  process.stderr.write(`${warning}\n`);

try {
  await program.parseAsync(process.argv.slice(2), { from: "user" });
  // A client command is done once its output is flushed: exit then, rather than
  // wait for idle keep-alive sockets to time out. `serve` keeps running on its own.
  if (program.args[0] !== "serve" && program.args[0] !== "mcp")
    process.stdout.write("", () => process.exit(process.exitCode ?? EXIT.ok));
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version exit 0; everything else commander rejects is a usage error.
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  if (err instanceof CliError) {
    process.stderr.write(`notula: ${err.message}\n`);
    process.exit(err.code);
  }
  process.stderr.write(`notula: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(EXIT.error);
}
