// Output conventions: data to stdout, messages to stderr; tables on a terminal,
// the API's own JSON with --json; colour only on a terminal and never with NO_COLOR.
import { formatInZone, localZone } from "../../core/time-zone.js";
import { environment } from "../../config/environment.js";

export function colourEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !environment().has("noColor") && environment().term !== "dumb";
}

const wrap = (code: number) => (s: string) => (colourEnabled() ? `\x1b[${code}m${s}\x1b[0m` : s);
export const bold = wrap(1);
export const dim = wrap(2);
export const green = wrap(32);
export const yellow = wrap(33);

/** Names joined for a table cell or a line: "Design, Sales". */
export const names = (xs: { name: string }[]) => xs.map((x) => x.name).join(", ");

/** --limit and --offset, as list commands take them. */
export interface PageFlags {
  limit?: string;
  offset?: string;
}

export const pageOptions = (cmd: import("commander").Command) =>
  cmd.option("--limit <n>", "per page (default 20)").option("--offset <n>", "skip");

export function printJson(value: unknown) {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

let quiet = false;
/** --quiet (or NOTULA_QUIET): no progress or status lines on stderr; warnings and errors still. */
export const beQuiet = (on: boolean) => void (quiet = on);
export const isQuiet = () => quiet;

/** A status or progress line on stderr (none under --quiet). */
export function info(message: string) {
  if (!quiet) process.stderr.write(message + "\n");
}

/** A warning on stderr, said even under --quiet. */
export function warn(message: string) {
  process.stderr.write(message + "\n");
}

/** Visible width, ignoring colour codes. */
const width = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").length;

export function truncate(s: string, max: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  // Piped, a cell is whole: a program reading the rows wants the title, not its start.
  if (!process.stdout.isTTY) return one;
  return one.length > max ? one.slice(0, Math.max(1, max - 1)) + "…" : one;
}

/**
 * A search match's «highlighted» words: bold at a colour terminal, marked with «» at
 * another terminal, and plain when piped (the marks are for people).
 */
export function highlighted(text: string): string {
  if (!process.stdout.isTTY) return text.replace(/[«»]/g, "");
  return colourEnabled() ? text.replace(/«([^»]*)»/g, (_, w: string) => bold(w)) : text;
}

/**
 * A table: aligned columns with a header on a terminal; tab-separated without one,
 * so that `notula … | cut -f1` works.
 */
export function printTable(headers: string[], rows: string[][]) {
  if (process.stdout.isTTY && rows.length === 0) {
    process.stderr.write(dim("(nothing to show)") + "\n");
    return;
  }
  process.stdout.write(formatTable(headers, rows, Boolean(process.stdout.isTTY)));
}

/** A table as text: aligned under a header for a terminal, else a tab-separated line per row. */
export function formatTable(headers: string[], rows: string[][], terminal: boolean): string {
  if (!terminal) return rows.map((r) => r.map((c) => c.replace(/[\t\n]/g, " ")).join("\t") + "\n").join("");
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c + " ".repeat(widths[i] - width(c)))).join("  ");
  return [bold(line(headers)), ...rows.map(line)].map((l) => l + "\n").join("");
}

/** "2026-11-28 01:24" in the terminal's zone (TZ), as ls and git print times; --json keeps the API's UTC. */
export const shortDate = (iso: string | null | undefined) => (iso ? formatInZone(iso, localZone()).slice(0, 16) : "");
