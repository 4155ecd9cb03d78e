// Where a command line has got to, word by word, read against the command tree: the
// command reached so far and how many of its arguments are given. Shared by the reading
// of `--json FIELDS` (program.ts) and shell completion (complete.ts), which both must
// know what a word is before commander parses it.
import type { Command, Option } from "commander";

export class ArgCursor {
  command: Command;
  positionals = 0;

  constructor(program: Command) {
    this.command = program;
  }

  /** The option a flag names, on this command or one it is under (global flags). */
  optionFor(flag: string): Option | undefined {
    if (flag.includes("=")) return undefined;
    for (let c: Command | null = this.command; c; c = c.parent)
      for (const o of c.options) if (o.long === flag || o.short === flag) return o;
    return undefined;
  }

  /** Whether every required argument of the command reached is given (a leaf's only). */
  get argumentsDone(): boolean {
    return (
      this.command.commands.length === 0 &&
      this.positionals >= this.command.registeredArguments.filter((a) => a.required).length
    );
  }

  /** A word that is not a flag: a subcommand's name goes down into it, anything else is an argument. */
  enter(word: string): void {
    const sub = this.command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      this.command = sub;
      this.positionals = 0;
    } else this.positionals++;
  }
}
