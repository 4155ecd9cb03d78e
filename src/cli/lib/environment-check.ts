// Variables people try that notula does not read (NOTULA_SERVER for NOTULA_URL, say)
// are silently ignored by everything else: the CLI names them with what was meant.
// Only a name with a likely meaning is warned about; others may belong to other tools.
import { CLI_ENVIRONMENT } from "../../config/environment.js";
import type { Env } from "../../config/setting.js";

/** Names people reach for, from other tools' habits, and what notula reads instead. */
const MEANT: Record<string, string> = {
  NOTULA_SERVER: "NOTULA_URL",
  NOTULA_SERVER_URL: "NOTULA_URL",
  NOTULA_API_URL: "NOTULA_URL",
  NOTULA_BASE_URL: "NOTULA_URL",
  NOTULA_ENDPOINT: "NOTULA_URL",
  NOTULA_TOKEN: "NOTULA_API_KEY",
  NOTULA_API_TOKEN: "NOTULA_API_KEY",
  NOTULA_ACCESS_TOKEN: "NOTULA_API_KEY",
  NOTULA_KEY: "NOTULA_API_KEY",
  NOTULA_APIKEY: "NOTULA_API_KEY",
};

/** Edits (insert, delete, replace) between two short names. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** A warning for each NOTULA_* variable set that notula does not read but likely meant another. */
export async function unreadVariables(env: Env = process.env): Promise<string[]> {
  const cli: string[] = Object.values(CLI_ENVIRONMENT).map((v) => v.name);
  const set = Object.keys(env).filter((k) => k.startsWith("NOTULA_") && !cli.includes(k));
  if (!set.length) return [];
  // The server's settings are read by `serve` and `admin`: never a mistake. (Loaded only
  // when a NOTULA_ variable other than the CLI's is set at all.)
  const { entries } = await import("../../config/setting.js");
  const { SETTINGS } = await import("../../config/settings.js");
  const read = new Set(entries(SETTINGS).flatMap((e) => e.setting.env ?? []));
  const warnings: string[] = [];
  for (const name of set) {
    if (read.has(name)) continue;
    const meant = MEANT[name] ?? cli.find((known) => known.startsWith("NOTULA_") && distance(name, known) <= 2);
    if (meant) warnings.push(`warning: notula does not read ${name}; did you mean ${meant}?`);
  }
  return warnings;
}
