// Where a command line has got to, word by word, read against the command tree: the
// command reached so far and how many of its arguments are given. Shared by the reading
// of `--json FIELDS` (program.ts) and shell completion (complete.ts), which both must
// know what a word is before commander parses it.
import type { CommandNode, OptionNode } from "./command-tree.js";

export class ArgCursor {
  /** The commands entered, the program first: a flag of any of them may be given. */
  readonly path: CommandNode[];
  positionals = 0;

  constructor(program: CommandNode) {
    this.path = [program];
  }

  get command(): CommandNode {
    return this.path[this.path.length - 1];
  }

  /** The option a flag names, on this command or one it is under (global flags). */
  optionFor(flag: string): OptionNode | undefined {
    if (flag.includes("=")) return undefined;
    for (let i = this.path.length - 1; i >= 0; i--)
      for (const o of this.path[i].options) if (o.long === flag || o.short === flag) return o;
    return undefined;
  }

  /** Whether every required argument of the command reached is given (a leaf's only). */
  get argumentsDone(): boolean {
    return (
      this.command.commands.length === 0 && this.positionals >= this.command.arguments.filter((a) => a.required).length
    );
  }

  /** A word that is not a flag: a subcommand's name goes down into it, anything else is an argument. */
  enter(word: string): void {
    const sub = this.command.commands.find((c) => c.name === word || c.aliases.includes(word));
    if (sub) {
      this.path.push(sub);
      this.positionals = 0;
    } else this.positionals++;
  }
}
