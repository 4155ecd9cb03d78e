// Output conventions: data to stdout, messages to stderr; tables on a terminal,
// the API's own JSON with --json; colour only on a terminal and never with NO_COLOR.
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

export function info(message: string) {
  process.stderr.write(message + "\n");
}

/** Visible width, ignoring colour codes. */
const width = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").length;

export function truncate(s: string, max: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > max ? one.slice(0, Math.max(1, max - 1)) + "…" : one;
}

/**
 * A table: aligned columns with a header on a terminal; tab-separated without one,
 * so that `notula … | cut -f1` works.
 */
export function printTable(headers: string[], rows: string[][]) {
  if (!process.stdout.isTTY) {
    for (const r of rows) process.stdout.write(r.join("\t") + "\n");
    return;
  }
  if (rows.length === 0) {
    process.stderr.write(dim("(nothing to show)") + "\n");
    return;
  }
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c + " ".repeat(widths[i] - width(c)))).join("  ");
  process.stdout.write(bold(line(headers)) + "\n");
  for (const r of rows) process.stdout.write(line(r) + "\n");
}

export const shortDate = (iso: string | null | undefined) => (iso ? iso.replace("T", " ").slice(0, 16) : "");
