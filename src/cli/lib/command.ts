// How a command is written: each verb is a module (commands/<noun>/<verb>.ts) that
// declares its arguments and flags (`define`), does its work with what it is given
// (`run(input, deps)`: no commander, no process globals, so a test calls it with a
// fake API client) and says how its result reads on a terminal (`render`). This
// module wires the three together for commander.
import type { Command } from "commander";
import type { ApiClient } from "./api-client.js";
import { checkJq, checkTemplate, jsonRequest, jsonText } from "./json-output.js";
import { CliError } from "../exit.js";

/** What a client command's run is given: the API of the server it talks to, and the output mode. */
export interface Deps {
  api: ApiClient;
  /** The server's address, for links printed to people. */
  server: string;
  /** --json: the result is printed as the API's JSON. */
  json: boolean;
  /** How long --wait follows a note. */
  waitMs?: number;
}

/** A verb module. `Input` is its flags and its named arguments, in one object. */
export interface Verb<Input, Result, D = Deps> {
  /** Adds the verb, with its arguments and flags, under its noun's command. */
  define(parent: Command): Command;
  run(input: Input, deps: D): Promise<Result>;
  /** How the result reads at a terminal (tables, one value per line, messages on stderr). */
  render?(result: Result, input: Input, deps: D): unknown;
  /** The verb prints its result itself, also under --json (exports, pagers, formats of its own). */
  ownsOutput?: boolean;
  /** What --json prints of the result, when that is not the result itself (a note made among other facts). */
  jsonOf?(result: Result): unknown;
  /** Checks the input before anything connects: a usage error is told as such, even without credentials. */
  validate?(input: Input): void | Promise<void>;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The one input object of a verb: commander's flags, with the command's declared
 * arguments under their names (`<id>` as `id`, `[name...]` as `name`).
 */
export function inputOf(cmd: Command, args: unknown[]): Record<string, unknown> {
  const input: Record<string, unknown> = { ...cmd.opts() };
  cmd.registeredArguments.forEach((arg, i) => {
    if (args[i] !== undefined) input[camel(arg.name())] = args[i];
  });
  return input;
}

/** Whether --json (with or without fields) or --jq was given, anywhere on the command line. */
export const isJson = (cmd: Command) => jsonRequest(cmd.optsWithGlobals()) !== null;

/** Where a verb's result goes under --json (its text, made by jsonText): standard output, unless the noun prints elsewhere. */
export type JsonOut = (text: string) => void;

const toStdout: JsonOut = (text) => void process.stdout.write(text);

/** Adds a verb under its noun's command, run for commander: its input, its deps, then its output. */
export function attach<I, R, D>(
  parent: Command,
  verb: Verb<I, R, D>,
  deps: (cmd: Command) => Promise<D> | D,
  json: JsonOut = toStdout,
): Command {
  return verb.define(parent).action(async (...all: unknown[]) => {
    // commander passes the declared arguments, then the flags, then the command.
    const cmd = all[all.length - 1] as Command;
    const input = inputOf(cmd, all.slice(0, -2)) as I;
    await verb.validate?.(input);
    const request = jsonRequest(cmd.optsWithGlobals());
    if (request?.jq !== undefined) await checkJq(request.jq);
    if (request?.template !== undefined) await checkTemplate(request.template);
    const d = await deps(cmd);
    let result: R;
    try {
      result = await verb.run(input, d);
    } catch (err) {
      if (request && !verb.ownsOutput && err instanceof CliError && err.partial !== undefined)
        json(await jsonText(verb.jsonOf ? verb.jsonOf(err.partial as R) : err.partial, request));
      throw err;
    }
    if (request && !verb.ownsOutput) json(await jsonText(verb.jsonOf ? verb.jsonOf(result) : result, request));
    else await verb.render?.(result, input, d);
  });
}

/** Adds verb modules under a noun's command, each run with the deps `deps` makes. */
export function under<D>(
  parent: Command,
  deps: (cmd: Command) => Promise<D> | D,
  verbs: Verb<any, any, D>[], // eslint-disable-line @typescript-eslint/no-explicit-any
  json?: JsonOut,
): Command {
  for (const verb of verbs) attach(parent, verb, deps, json);
  return parent;
}

/** The global flags (profile, server, key, output) as commands that do not call the API read them. */
export interface GlobalFlags {
  profile?: string;
  server?: string;
  apiKey?: string;
  /** --json: true or "" for every field, else the fields asked for. */
  json?: boolean | string;
  jq?: string;
  outputTemplate?: string;
  timeout?: string;
}

/** What a command that works on the user's own config or a data dir is given: the global flags. */
export interface GlobalDeps {
  globals: GlobalFlags;
}

export const globalDeps = (cmd: Command): GlobalDeps => ({ globals: cmd.optsWithGlobals() });

/** The deps of a client command: the server and key it is pointed at (flags, environment, profile). */
export async function clientDeps(cmd: Command): Promise<Deps> {
  // Loaded when a client command runs, not when the command line is parsed.
  const { apiKeyFor } = await import("./credential-for.js");
  const { createApiClient } = await import("./api-client.js");
  const { timeoutsFrom } = await import("./timeout.js");
  const o = cmd.optsWithGlobals();
  const timeouts = timeoutsFrom(o);
  const { key, from, selection } = await apiKeyFor(o);
  return {
    api: createApiClient(selection.server, key, timeouts.requestMs, {
      keyFrom: from === "flag" || from === "env" ? from : "profile",
    }),
    server: selection.server,
    json: isJson(cmd),
    waitMs: timeouts.waitMs,
  };
}
