// The notula program: its global options and its commands, each loaded only when it
// is the one being run. Made by a factory so that the reference (docs/cli.md) is
// generated from the same definitions the command line parses.
import { CliError, EXIT } from "./exit.js";
import { Command, type ParseOptions } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { EXIT_CODES_HELP } from "./exit.js";
import { ArgCursor } from "./lib/arg-cursor.js";
import { looksLikeFields } from "./lib/json-output.js";
import { beQuiet } from "./lib/output.js";
import { commandTree, offer } from "./lib/command-tree.js";
import { environment } from "../config/environment.js";
import { environmentHelp } from "./environment-help.js";

type Register = (program: Command) => void;

/**
 * The top-level commands, each with the module that defines it, in the order help lists
 * them. Only the module of the command being run is loaded: `notula notes list` does not
 * pay for the server, the admin tools or the recorder. Help, the reference and anything
 * unknown load them all; completion reads the tree they make (command-tree.ts), written at build.
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
  { names: ["actions"], load: async () => (await import("./commands/actions/index.js")).registerActions },
  { names: ["templates"], load: async () => (await import("./commands/templates/index.js")).registerTemplates },
  { names: ["ask"], load: async () => (await import("./commands/ask/index.js")).registerAsk },
  { names: ["upload"], load: async () => (await import("./commands/upload/index.js")).registerUpload },
  { names: ["record"], load: async () => (await import("./commands/record/index.js")).registerRecord },
  { names: ["folders"], load: async () => (await import("./commands/folders/index.js")).registerFolders },
  { names: ["tags"], load: async () => (await import("./commands/tags/index.js")).registerTags },
  { names: ["groups"], load: async () => (await import("./commands/groups/index.js")).registerGroups },
  { names: ["members"], load: async () => (await import("./commands/members/index.js")).registerMembers },
  { names: ["invites"], load: async () => (await import("./commands/invites/index.js")).registerInvites },
  {
    names: ["me", "workspace", "notifications"],
    load: async () => (await import("./commands/workspace/index.js")).registerWorkspace,
  },
  { names: ["webhooks"], load: async () => (await import("./commands/webhooks/index.js")).registerWebhooks },
  { names: ["calendar"], load: async () => (await import("./commands/calendar/index.js")).registerCalendar },
  { names: ["mail"], load: async () => (await import("./commands/mail/index.js")).registerMail },
  { names: ["login", "logout", "auth"], load: async () => (await import("./commands/auth/index.js")).registerAuth },
  { names: ["profiles"], load: async () => (await import("./commands/profiles/index.js")).registerProfiles },
  {
    names: ["completion"],
    load: async () => (await import("./commands/completion/index.js")).registerCompletion,
  },
  { names: ["mcp"], load: async () => (await import("./commands/mcp/index.js")).registerMcp },
  { names: ["import"], load: async () => (await import("./commands/import/index.js")).registerImport },
  { names: ["archive"], load: async () => (await import("./commands/archive/index.js")).registerArchive },
  { names: ["browse"], load: async () => (await import("./commands/browse/index.js")).registerBrowse },
  { names: ["api"], load: async () => (await import("./commands/api/index.js")).registerApi },
];

/** The command the arguments run: the first word that is not a global flag or its value. */
function commandOf(args: string[], program: Command): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith("-")) return args[i];
    if (program.options.find((o) => o.long === args[i] || o.short === args[i])?.required) i++;
  }
  return undefined;
}

/** The program for these arguments: only the named command's module loaded, or all of them (help, completion, the reference). */
export async function createProgram(args: string[] | "all"): Promise<Command> {
  const program = new Program()
    .name("notula")
    .description("Self-hosted meeting notes: the service, its administration and its API from the terminal")
    .version(pkg.version, "-v, --version")
    .option(
      "--server <url>",
      "the notula server (NOTULA_URL; default: the profile's, else http://127.0.0.1:8787); without --profile, the profile signed in to it is used",
    )
    .option(
      "--profile <name>",
      "the profile to use: its server and its own credential (NOTULA_PROFILE; default: the active one)",
    )
    .option(
      "--api-key <key>",
      "use this API key, whatever is stored (prefer NOTULA_API_KEY: a flag shows in the process list)",
    )
    .option(
      "--json [fields]",
      "print JSON, not tables (a list as { items }, one resource as itself); --json id,title keeps those fields",
    )
    .option("--jq <expr>", "filter the JSON with a jq expression (implies --json), as in gh: --jq '.items[].id'")
    .option(
      "--output-template <text>",
      "write the JSON out with a Mustache template (implies --json), as gh's --template: '{{#items}}{{id}} {{title}}\\n{{/items}}'",
    )
    .option("--timeout <seconds>", "how long to wait for each answer from the server (NOTULA_TIMEOUT; default 30)")
    .option(
      "--wait-timeout <seconds>",
      "how long --wait follows a note until it is processed (NOTULA_WAIT_TIMEOUT; default 3600)",
    )
    .option(
      "-q, --quiet",
      "no progress or status lines on stderr, for CI logs; warnings and errors still (NOTULA_QUIET)",
    )
    .hook("preAction", (_program, action) => {
      const quiet = environment().quiet;
      beQuiet(Boolean(action.optsWithGlobals().quiet) || (quiet !== undefined && quiet !== "0"));
    })
    // Every command's help lists the global flags it inherits (--json, --server, --profile…).
    .configureHelp({ showGlobalOptions: true })
    // A mistake is answered in a line or two, not with the whole help (gh's way).
    .configureOutput({ outputError: (message, write) => write(usageLine(message)) })
    .showHelpAfterError("(add --help for the command's usage)")
    .exitOverride()
    .addHelpText("after", EXIT_CODES_HELP)
    .addHelpText("afterAll", "\nThe variables notula reads: notula help environment");

  const named = args === "all" ? undefined : COMMANDS.find((c) => c.names.includes(commandOf(args, program) ?? ""));
  // Help and the error for an unknown command list every command.
  for (const c of named ? [named] : COMMANDS) (await c.load())(program);
  offer(program, "--profile", { source: "profiles" });
  return program;
}

/**
 * Commander's error as one line in notula's voice: `error: unknown command 'lsit'
 * (Did you mean list?)` becomes `notula: unknown command "lsit"; did you mean "list"?`.
 */
export function usageLine(message: string): string {
  const [first, ...rest] = message.trim().split("\n");
  const quoted = (s: string) => s.replace(/'([^']*)'/g, '"$1"');
  const suggestion = rest.map((l) => /^\(Did you mean (.+)\?\)$/.exec(l.trim())?.[1]).find(Boolean);
  const line = quoted(first.replace(/^error: /, ""));
  return `notula: ${line}${
    suggestion
      ? `; did you mean ${suggestion
          .split(", ")
          .map((s) => `"${s}"`)
          .join(" or ")}?`
      : ""
  }\n`;
}

/** The first word of a `help` request that names no command, and the command it was looked for under. */
function unknownCommandIn(program: Command, words: string[]): { word: string; under: string } | null {
  let at = program;
  const path: string[] = [];
  for (const word of words) {
    if (word.startsWith("-")) break;
    const next = at.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return at.commands.length ? { word, under: path.join(" ") } : null;
    at = next;
    path.push(word);
  }
  return null;
}

/** The notula program: commander's, reading `--json FIELDS` as gh does (see withJsonFields). */
class Program extends Command {
  override async parseAsync(argv?: readonly string[], options?: ParseOptions) {
    const user = [...((options?.from === "user" ? argv : argv?.slice(2)) ?? process.argv.slice(2))];
    // Bare `notula` is a request for help, answered as such (exit 0), as gh does.
    if (!user.length) {
      this.outputHelp();
      return this;
    }
    // The one help topic that names no command.
    if (user[0] === "help" && user.length === 2 && user[1] === "environment") {
      process.stdout.write(await environmentHelp());
      return this;
    }
    // `help notes list` is `notes list --help` (commander's own help command reads one word).
    if (user[0] === "help" && user.length > 1) {
      const unknown = unknownCommandIn(this, user.slice(1));
      if (unknown)
        throw new CliError(
          `no command "${unknown.word}"${unknown.under ? ` under "${unknown.under}"` : ""}; run "notula help${unknown.under ? ` ${unknown.under}` : ""}" for the list.`,
          EXIT.usage,
        );
    }
    const args = user[0] === "help" && user.length > 1 ? [...user.slice(1), "--help"] : user;
    return super.parseAsync(withJsonFields(args, this), { from: "user" });
  }
}

/**
 * The arguments with each `--json` made unambiguous for commander: `--json=FIELDS` when
 * the next word is a field list, else `--json=` (every field). The next word is a field
 * list only where the command could take no other word there: a leaf command whose
 * required arguments are all given. So `notula --json notes list`, `notes get --json ID`
 * and `notes list --json id,title` each mean what they say.
 */
export function withJsonFields(args: string[], program: Command): string[] {
  const out: string[] = [];
  const at = new ArgCursor(commandTree(program));
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (word === "--json") {
      const next = args[i + 1];
      const fields = next !== undefined && !next.startsWith("-") && at.argumentsDone && looksLikeFields(next);
      out.push(fields ? `--json=${next}` : "--json=");
      if (fields) i++;
      continue;
    }
    out.push(word);
    if (!word.startsWith("-")) at.enter(word);
    else {
      const option = at.optionFor(word);
      if (option?.value && i + 1 < args.length) out.push(args[++i]);
    }
  }
  return out;
}
