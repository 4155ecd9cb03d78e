// What commands share: prompts where a person can answer them, and reading input.
import { CliError, EXIT } from "../exit.js";
import { environment } from "../../config/environment.js";

/** Prompts only where a person can answer: both ends a terminal, and not in CI. */
export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !environment().ci;
}

/** Asks before destructive work; --yes skips; without a terminal, --yes is required. */
export async function confirm(message: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!canPrompt()) throw new CliError(`${message} Pass --yes to confirm when not at a terminal.`, EXIT.usage);
  const p = await import("@clack/prompts");
  // No is the default: a stray Enter never destroys anything.
  const answer = await p.confirm({ message, initialValue: false });
  if (p.isCancel(answer) || !answer) throw new CliError("Cancelled.", EXIT.usage);
}

/** A required value: the flag, else a prompt at a terminal, else an error naming the flag. */
export async function required(value: string | undefined, flag: string, question: string): Promise<string> {
  if (value) return value;
  if (!canPrompt()) throw new CliError(`Missing ${flag}.`, EXIT.usage);
  const p = await import("@clack/prompts");
  const answer = await p.text({ message: question, validate: (v) => (v?.trim() ? undefined : "Required") });
  if (p.isCancel(answer)) throw new CliError("Cancelled.", EXIT.usage);
  return String(answer).trim();
}

/** Reads a file, or standard input for "-". */
export async function readInput(file: string): Promise<string> {
  if (file !== "-") {
    const fs = await import("node:fs");
    try {
      return fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
];
