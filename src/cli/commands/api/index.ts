// notula api <endpoint>: any endpoint of the REST API with the stored credential, as gh's
// `api` does. -X names the method (GET, or POST once a field is given); -f key=value
// adds a string field, -F key=value a typed one (true, false, null, numbers, @file for a
// file's text); a GET's fields go in the query, any other method's in the JSON body.
// --paginate follows a list's pages and prints their items as one list. The answer is
// printed as JSON (and filtered with --jq); an error answer exits as every command does.
import fs from "node:fs";
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import { clientDeps, under, type Deps } from "../../lib/command.js";
import { examples } from "../../lib/help.js";
import { printJson } from "../../lib/output.js";

const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"];
/** Pages followed at most with --paginate: 100 pages of 100 items. */
const MAX_PAGES = 100;

const collect = (value: string, all: string[]) => [...all, value];

export const define = (program: Command) =>
  examples(
    program
      .command("api")
      .description("Call any endpoint of the REST API with your credential, and print its JSON answer")
      .argument("<endpoint>", "a path such as /v1/notes or notes/ID (v1/ is added when missing)")
      .option("-X, --method <method>", "the HTTP method (default: GET, or POST when a field is given)")
      .option("-f, --raw-field <key=value>", "a string field (repeatable)", collect, [])
      .option(
        "-F, --field <key=value>",
        "a typed field: true, false, null, a number, or @file (repeatable)",
        collect,
        [],
      )
      .option("--paginate", "follow a list's pages (offset) and print all its items as one list"),
    "notula api /v1/me",
    "notula api notes -f limit=5 --jq '.items[].title'",
    "notula api notes --paginate -f status=completed",
    "notula api -X PATCH notes/note_abc -f title='Weekly sync'",
    "notula api notes -F transcripts=@lines.json -f title=Imported",
  );

export interface Input {
  endpoint: string;
  method?: string;
  rawField: string[];
  field: string[];
  paginate?: boolean;
}

/** A field's key and value: -f as the string given, -F read as JSON or from a file. */
function fieldOf(spec: string, typed: boolean): [string, unknown] {
  const at = spec.indexOf("=");
  if (at < 1) throw new CliError(`${typed ? "-F" : "-f"} ${spec}: a field is key=value.`, EXIT.usage);
  const key = spec.slice(0, at);
  const raw = spec.slice(at + 1);
  if (!typed) return [key, raw];
  if (raw.startsWith("@")) {
    const file = raw.slice(1);
    let text: string;
    try {
      text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
    } catch (err) {
      throw new CliError(`-F ${key}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? err}).`, EXIT.usage);
    }
    // A JSON file is its value; any other text is the text.
    try {
      return [key, JSON.parse(text)];
    } catch {
      return [key, text];
    }
  }
  if (raw === "true" || raw === "false" || raw === "null" || /^-?\d+(\.\d+)?$/.test(raw)) return [key, JSON.parse(raw)];
  return [key, raw];
}

export function validate(f: Input) {
  if (f.method !== undefined && !METHODS.includes(f.method.toUpperCase()))
    throw new CliError(`--method: one of ${METHODS.join(", ")}; got "${f.method}".`, EXIT.usage);
  if (f.paginate && f.method && f.method.toUpperCase() !== "GET")
    throw new CliError("--paginate follows the pages of a GET list.", EXIT.usage);
}

/** The path as sent: a leading slash, and /v1 when the endpoint names none. */
const pathOf = (endpoint: string) => {
  const p = endpoint.startsWith("/") ? endpoint : `/${endpoint}`;
  return /^\/(v1|mcp|oauth|healthz|metrics)(\/|$|\?)/.test(p) ? p : `/v1${p}`;
};

export async function run(f: Input, { api }: Deps): Promise<unknown> {
  validate(f);
  const fields = [...f.rawField.map((s) => fieldOf(s, false)), ...f.field.map((s) => fieldOf(s, true))];
  const method = (f.method ?? (fields.length && !f.paginate ? "POST" : "GET")).toUpperCase();
  const path = pathOf(f.endpoint);
  if (method !== "GET") return api.request(method, path, fields.length ? Object.fromEntries(fields) : undefined);
  const [base, search = ""] = path.split("?");
  const query = new URLSearchParams(search);
  for (const [k, v] of fields) query.set(k, Array.isArray(v) ? v.join(",") : String(v));
  const get = (q: URLSearchParams) => api.request("GET", q.size ? `${base}?${q}` : base);
  if (!f.paginate) return get(query);
  // A list's pages, by its offset, until the last: their items as one list.
  const items: unknown[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = (await get(query)) as {
      items?: unknown[];
      pagination?: { nextOffset: number | null; isLast: boolean };
    };
    if (!Array.isArray(answer.items))
      throw new CliError(`${base} is not a list (its answer has no items): --paginate is for lists.`, EXIT.usage);
    items.push(...answer.items);
    if (!answer.pagination || answer.pagination.isLast || answer.pagination.nextOffset === null) return { items };
    query.set("offset", String(answer.pagination.nextOffset));
  }
  throw new CliError(
    `${base} has more than ${MAX_PAGES} pages: narrow the list with fields, or page it with -f offset=N.`,
  );
}

export const render = (result: unknown) => printJson(result);

export const registerApi = (program: Command) => under(program, clientDeps, [{ define, run, render, validate }]);
