// The notula program: its global options and its commands, each loaded only when it
// is the one being run. Made by a factory so that the reference (docs/cli.md) is
// generated from the same definitions the command line parses.
import { Command } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { EXIT_CODES_HELP } from "./exit.js";

type Register = (program: Command) => void;

/**
 * The top-level commands, each with the module that defines it, in the order help lists
 * them. Only the module of the command being run is loaded: `notula notes list` does not
 * pay for the server, the admin tools or the recorder. Help, completion and anything
 * unknown load them all.
 */
const COMMANDS: { names: string[]; load: () => Promise<Register> }[] = [
  {
    names: ["serve"],
    load: async () => {
      const { registerServe } = await import("./commands/serve/index.js");
      return (p) => registerServe(p, pkg.version);
    },
  },
  { names: ["admin"], load: async () => (await import("./commands/admin/index.js")).registerAdmin },
  { names: ["migrate"], load: async () => (await import("./commands/migrate/index.js")).registerMigrate },
  { names: ["models"], load: async () => (await import("./commands/models/index.js")).registerModels },
  { names: ["notes"], load: async () => (await import("./commands/notes/index.js")).registerNotes },
  { names: ["templates"], load: async () => (await import("./commands/templates/index.js")).registerTemplates },
  { names: ["upload"], load: async () => (await import("./commands/upload/index.js")).registerUpload },
  { names: ["record"], load: async () => (await import("./commands/record/index.js")).registerRecord },
  { names: ["folders"], load: async () => (await import("./commands/folders/index.js")).registerFolders },
  { names: ["tags"], load: async () => (await import("./commands/tags/index.js")).registerTags },
  { names: ["groups"], load: async () => (await import("./commands/groups/index.js")).registerGroups },
  { names: ["members"], load: async () => (await import("./commands/members/index.js")).registerMembers },
  { names: ["invites"], load: async () => (await import("./commands/invites/index.js")).registerInvites },
  { names: ["me", "workspace"], load: async () => (await import("./commands/workspace/index.js")).registerWorkspace },
  { names: ["webhooks"], load: async () => (await import("./commands/webhooks/index.js")).registerWebhooks },
  { names: ["login", "logout", "auth"], load: async () => (await import("./commands/auth/index.js")).registerAuth },
  { names: ["profiles"], load: async () => (await import("./commands/profiles/index.js")).registerProfiles },
  { names: ["completion"], load: async () => (await import("./commands/completion/index.js")).registerCompletion },
  { names: ["mcp"], load: async () => (await import("./commands/mcp/index.js")).registerMcp },
];

/** Global options that take a value: their value is not a command's name. */
const VALUED = new Set(["--server", "--profile", "--api-key"]);

/** The command the arguments run (the first word that is not an option or an option's value). */
function commandOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (VALUED.has(args[i])) i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

/** The program for these arguments: only the named command's module loaded, or all of them (help, completion, the reference). */
export async function createProgram(args: string[] | "all"): Promise<Command> {
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
    .option(
      "--timeout <seconds>",
      "how long to wait for each answer from the server, and for a note with --wait (NOTULA_TIMEOUT; default 30, and an hour for --wait)",
    )
    .showHelpAfterError()
    .exitOverride()
    .addHelpText("after", EXIT_CODES_HELP);

  const named = args === "all" ? undefined : COMMANDS.find((c) => c.names.includes(commandOf(args) ?? ""));
  // Completion scripts list every command; so do help and the error for an unknown one.
  for (const c of named && !named.names.includes("completion") ? [named] : COMMANDS) (await c.load())(program);
  return program;
}
