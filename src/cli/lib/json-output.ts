// What --json prints: every list in one shape ({ items, … }), a single resource as
// itself, and, as gh does, `--json FIELDS` to keep some fields, `--jq EXPR` to filter
// the result with jq (the real jq, compiled to WebAssembly, loaded only then) and
// `--output-template TEXT` to write it out as text (Mustache, as gh's --template does
// with Go templates; `--template` names a note's template on the commands that take one).
import { CliError, EXIT } from "../exit.js";

/** A list as every command prints it under --json: its items, with the page and anything else the answer says. */
export type ListResult<T, Rest extends object = object> = { items: T[] } & Rest;

/** The one list shape, from an answer that holds its items under `key` (`folders`, `webhooks`…). */
export function listOf<K extends string, R extends { [k in K]: unknown[] }>(
  key: K,
  answer: R,
): ListResult<R[K][number], Omit<R, K>> {
  const { [key]: items, ...rest } = answer;
  return { items: items as R[K][number][], ...(rest as Omit<R, K>) };
}

/** What was asked of --json: everything, some fields, a jq filter. Null without --json or --jq. */
export interface JsonRequest {
  fields?: string[];
  jq?: string;
  template?: string;
}

/** From the global flags (a command's optsWithGlobals()). */
export function jsonRequest(o: { json?: string | boolean; jq?: string; outputTemplate?: string }): JsonRequest | null {
  if (o.json === undefined && o.jq === undefined && o.outputTemplate === undefined) return null;
  const fields =
    typeof o.json === "string" && o.json !== ""
      ? o.json
          .split(",")
          .map((f) => f.trim())
          .filter(Boolean)
      : undefined;
  return { fields, jq: o.jq, template: o.outputTemplate };
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a word after --json is a list of fields (`id,title`) rather than the next argument. */
export const looksLikeFields = (word: string) => word.split(",").every((f) => FIELD.test(f));

function pick(value: unknown, fields: string[]): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => f in record).map((f) => [f, record[f]]));
}

/** The fields kept: of each item of a list, else of the object itself; a field none of them has is an error. */
function select(value: unknown, fields: string[]): unknown {
  const list = value && typeof value === "object" && Array.isArray((value as { items?: unknown }).items);
  const rows: unknown[] = list ? (value as { items: unknown[] }).items : [value];
  const known = new Set(rows.flatMap((r) => (r && typeof r === "object" ? Object.keys(r) : [])));
  const unknown = rows.length ? fields.filter((f) => !known.has(f)) : [];
  if (unknown.length)
    throw new CliError(
      `--json: unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((f) => `"${f}"`).join(", ")}; ` +
        `the fields are ${[...known].sort().join(", ")}.`,
      EXIT.usage,
    );
  if (!list) return pick(value, fields);
  return { ...(value as object), items: rows.map((r) => pick(r, fields)) };
}

type Jq = typeof import("jq-wasm");
const loadJq = (): Promise<Jq> => import("jq-wasm");

/** A jq program that does not compile is a usage error, found before the command runs. */
export async function checkJq(expr: string): Promise<void> {
  try {
    await (await loadJq()).raw("null", expr, ["-r"]);
  } catch (err) {
    const message = String((err as Error)?.message ?? err);
    if (/compile error/.test(message))
      throw new CliError(`--jq: ${message.split("\n")[0].replace(/^jq: error: /, "")}`, EXIT.usage);
  }
}

/** An --output-template as written on a command line: \n and \t as a newline and a tab (a shell's quotes keep them). */
const templateText = (t: string) => t.replace(/\\n/g, "\n").replace(/\\t/g, "\t");

/** Refuses an --output-template that is not one (an unclosed section, say) before any request is made. */
export async function checkTemplate(template: string): Promise<void> {
  const { default: Mustache } = await import("mustache");
  try {
    Mustache.parse(templateText(template));
  } catch (err) {
    throw new CliError(`--output-template: ${(err as Error).message}`, EXIT.usage);
  }
}

/** The text --json prints for a result: the JSON (its fields kept), what the jq filter makes of it, or the template written out. */
export async function jsonText(value: unknown, request: JsonRequest): Promise<string> {
  const selected = request.fields?.length ? select(value, request.fields) : value;
  if (request.template !== undefined) {
    const { default: Mustache } = await import("mustache");
    // Text for a terminal, not HTML: nothing escaped.
    return Mustache.render(templateText(request.template), selected, {}, { escape: (t: string) => t });
  }
  if (request.jq === undefined) return JSON.stringify(selected, null, 2) + "\n";
  try {
    const out = await (await loadJq()).raw(JSON.stringify(selected ?? null), request.jq, ["-r"]);
    return out === "" ? "" : out.endsWith("\n") ? out : out + "\n";
  } catch (err) {
    throw new CliError(`--jq: ${String((err as Error)?.message ?? err).split("\n")[0]}`, EXIT.error);
  }
}
