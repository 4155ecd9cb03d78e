// The command tree as data: every command, its flags, its arguments and the values
// completion offers for them. `npm run build` writes it to dist/command-tree.json, so that
// a Tab is answered by reading one file (bin/notula.js, complete.ts) instead of loading
// every command's module; and the reading of `--json FIELDS` walks the same shape.
import type { Argument, Command, Option } from "commander";

/** Values read when completion asks for them, by name (the profiles file's names). */
export const SOURCES = ["profiles"] as const;
export type Source = (typeof SOURCES)[number];

/** The values completion offers: a fixed list, or a source read when asked. */
export type Values = readonly string[] | { source: Source };

export interface OptionNode {
  long?: string;
  short?: string;
  description: string;
  /** Whether the flag takes a value, and whether it must (`<v>`) or may (`[v]`). */
  value?: "required" | "optional";
  values?: Values;
  /** The value names a file or a directory. */
  files?: true;
  hidden?: true;
}

export interface ArgumentNode {
  name: string;
  required: boolean;
  values?: Values;
  files?: true;
}

export interface CommandNode {
  name: string;
  aliases: string[];
  description: string;
  hidden?: true;
  options: OptionNode[];
  arguments: ArgumentNode[];
  commands: CommandNode[];
}

const offered = new WeakMap<Option | Argument, Values>();

/**
 * The values completion offers for a flag of `cmd` (or its argument, by name). The flag's
 * own check still decides what is valid.
 */
export function offer(cmd: Command, name: string, values: Values): Command {
  const target = cmd.options.find((o) => o.long === name) ?? cmd.registeredArguments.find((a) => a.name() === name);
  if (!target) throw new Error(`${cmd.name()} has no ${name} to offer values for`);
  offered.set(target, values);
  return cmd;
}

/** A value that names a file or a directory (`<file>`, `<dir>`, `<path>`, `[file]`). */
const FILE_VALUE = /^[<[](file|dir|path)[>\]]$/;

function optionNode(o: Option): OptionNode {
  const valueName = o.flags.match(/[<[][\w.-]+[>\]]/)?.[0] ?? "";
  const values = offered.get(o) ?? o.argChoices;
  return {
    ...(o.long && { long: o.long }),
    ...(o.short && { short: o.short }),
    description: o.description,
    ...(o.required ? { value: "required" as const } : o.optional ? { value: "optional" as const } : {}),
    ...(values && { values }),
    ...(FILE_VALUE.test(valueName) && { files: true as const }),
    ...(o.hidden && { hidden: true as const }),
  };
}

function argumentNode(a: Argument): ArgumentNode {
  const values = offered.get(a) ?? a.argChoices;
  return {
    name: a.name(),
    required: a.required,
    ...(values && { values }),
    ...(FILE_VALUE.test(`<${a.name()}>`) && { files: true as const }),
  };
}

/** The tree of a program as commander holds it. */
export function commandTree(command: Command): CommandNode {
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    ...((command as Command & { _hidden?: boolean })._hidden && { hidden: true as const }),
    options: command.options.map(optionNode),
    arguments: command.registeredArguments.map(argumentNode),
    commands: command.commands.map(commandTree),
  };
}
