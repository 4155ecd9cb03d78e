// The notula command. Commands load their modules lazily, so that `--version`
// and client commands never load the server, SQLite or the AI stack.
import { Command, CommanderError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { registerAdmin } from "./commands/admin/index.js";
import { CliError, EXIT, EXIT_CODES_HELP } from "./exit.js";
import { registerAuth } from "./commands/auth/index.js";
import { registerProfiles } from "./commands/profiles/index.js";
import { registerCompletion } from "./commands/completion/index.js";
import { registerNotes } from "./commands/notes/index.js";
import { registerTemplates } from "./commands/templates/index.js";
import { registerUpload } from "./commands/upload/index.js";
import { registerRecord } from "./commands/record/index.js";
import { registerWebhooks } from "./commands/webhooks/index.js";
import { registerFolders } from "./commands/folders/index.js";
import { registerGroups } from "./commands/groups/index.js";
import { registerInvites } from "./commands/invites/index.js";
import { registerMembers } from "./commands/members/index.js";
import { registerTags } from "./commands/tags/index.js";
import { registerWorkspace } from "./commands/workspace/index.js";
import { registerMcp } from "./commands/mcp/index.js";
import { registerMigrate } from "./commands/migrate/index.js";
import { registerModels } from "./commands/models/index.js";
import { registerServe } from "./commands/serve/index.js";

const program = new Command()
  .name("notula")
  .description("Self-hosted meeting notes: the service, its administration and its API from the terminal")
  .version(pkg.version, "-v, --version")
  .option("--server <url>", "the notula server (NOTULA_URL; default: the profile's, else http://127.0.0.1:8787)")
  .option(
    "--profile <name>",
    "the profile to use: its server and its own credential (NOTULA_PROFILE; default: the active one)",
  )
  .option(
    "--api-key <key>",
    "use this API key, whatever is stored (prefer NOTULA_API_KEY: a flag shows in the process list)",
  )
  .option("--json", "print the API's JSON instead of tables")
  .showHelpAfterError()
  .exitOverride()
  .addHelpText("after", EXIT_CODES_HELP);

registerServe(program, pkg.version);
registerAdmin(program);
registerMigrate(program);
registerModels(program);
registerNotes(program);
registerTemplates(program);
registerUpload(program);
registerRecord(program);
registerFolders(program);
registerTags(program);
registerGroups(program);
registerMembers(program);
registerInvites(program);
registerWorkspace(program);
registerWebhooks(program);
registerAuth(program);
registerProfiles(program);
registerCompletion(program);
registerMcp(program);

try {
  await program.parseAsync(process.argv);
  // A client command is done once its output is flushed: exit then, rather than
  // wait for idle keep-alive sockets to time out. `serve` keeps running on its own.
  if (program.args[0] !== "serve" && program.args[0] !== "mcp") process.stdout.write("", () => process.exit(EXIT.ok));
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
