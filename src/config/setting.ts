// What a setting is, and what is made from a table of them (config/settings.ts): the
// zod schema of the whole configuration, the layers read from the environment and from
// `notula serve`'s flags, the flags themselves and the rows of the reference. Each
// value from the environment or a flag is checked against its own setting's schema as
// it is read, so a mistake names the variable or flag it came from.
import { Option } from "commander";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";

export interface Setting<S extends z.ZodType = z.ZodType> {
  readonly kind: "setting";
  readonly schema: S;
  /** What it does, one or two sentences: --help and the reference print it. */
  readonly doc: string;
  /** The environment variables that set it, the first ours and the rest read after it (the AWS SDKs' names). */
  readonly env?: readonly string[];
  /** Its `notula serve` flag, as commander takes it: "--port <port>", "--metrics", "--no-rate-limit". */
  readonly flag?: string;
  /** What --help says of the flag, where it reads differently from the setting (a --no- flag). */
  readonly flagDoc?: string;
  /** The default when it is worked out rather than fixed (the schema's default is shown otherwise). */
  readonly defaultDoc?: string;
  /** A credential: no flag (it would show in the process list), and the reference shows no value. */
  readonly secret?: boolean;
  /** Says where settings are read from, so a config file cannot set it. */
  readonly notInFile?: boolean;
}

export interface Group<C extends Tree = Tree, O extends boolean = boolean> {
  readonly kind: "group";
  readonly children: C;
  /** The whole group may be absent (it is when none of its settings is given), e.g. single sign-on. */
  readonly optional?: O;
  readonly check?: { rule: (value: any) => boolean; message: string };
  /** Fills in what follows from the group's other values (a metrics port turns metrics on). */
  readonly finish?: (value: any) => unknown;
}

export type Tree = { readonly [key: string]: Setting | Group };

export const setting = <S extends z.ZodType>(schema: S, opts: Omit<Setting<S>, "kind" | "schema">): Setting<S> => ({
  kind: "setting",
  schema,
  ...opts,
});

export const group = <C extends Tree, O extends boolean = false>(
  children: C,
  opts: Omit<Group<C, O>, "kind" | "children"> = {},
): Group<C, O> => ({ kind: "group", children, ...opts });

// --- The configuration's type, read off the table ----------------------------

type OptionalKeys<T> = { [K in keyof T]: undefined extends T[K] ? K : never }[keyof T];
type Shape<T> = { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & { [K in OptionalKeys<T>]?: T[K] };
type Flat<T> = { [K in keyof T]: T[K] };

export type OutputOf<N> =
  N extends Setting<infer S>
    ? z.output<S>
    : N extends Group<infer C, infer O>
      ? [O] extends [true]
        ? Flat<Shape<{ [K in keyof C]: OutputOf<C[K]> }>> | undefined
        : Flat<Shape<{ [K in keyof C]: OutputOf<C[K]> }>>
      : never;

export type ConfigOf<T extends Tree> = Flat<Shape<{ [K in keyof T]: OutputOf<T[K]> }>>;

// --- Walking the table --------------------------------------------------------

export interface Entry {
  /** Its place in the configuration: ["rateLimit", "perMinute", "free"]. */
  path: string[];
  setting: Setting;
}

export function entries(tree: Tree, at: string[] = []): Entry[] {
  return Object.entries(tree).flatMap(([key, node]) =>
    node.kind === "setting" ? [{ path: [...at, key], setting: node }] : entries(node.children, [...at, key]),
  );
}

// --- The schema ----------------------------------------------------------------

function objectOf(tree: Tree): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, node] of Object.entries(tree))
    shape[key] = node.kind === "setting" ? node.schema : groupSchema(node);
  return z.object(shape);
}

function groupSchema(g: Group): z.ZodType {
  let schema: z.ZodType = objectOf(g.children);
  if (g.check) schema = schema.refine(g.check.rule, g.check.message);
  if (g.finish) schema = schema.transform(g.finish);
  // An absent group is parsed from {} so that its defaults apply; an optional one stays absent.
  return g.optional ? schema.optional() : schema.prefault({});
}

/** The zod schema of a whole table. */
export const schemaOf = (tree: Tree): z.ZodType => objectOf(tree);

// --- Reading values from text (the environment, flags) -------------------------

/** The schema inside default/optional/nullable wrappers: what kind of value a setting holds. */
function base(schema: z.ZodType): z.ZodType {
  let t: z.ZodType = schema;
  for (let i = 0; i < 6; i++) {
    const inner = (t as unknown as { def: { innerType?: z.ZodType } }).def.innerType;
    if (!inner) break;
    t = inner;
  }
  return t;
}

export function valueKind(s: Setting): "number" | "boolean" | "numbers" | "string" {
  const b = base(s.schema);
  if (b instanceof z.ZodNumber) return "number";
  if (b instanceof z.ZodBoolean) return "boolean";
  if (b instanceof z.ZodArray) return "numbers";
  return "string";
}

function fromText(s: Setting, text: string, source: string): unknown {
  const kind = valueKind(s);
  const number = (v: string) => {
    const n = Number(v.trim());
    if (v.trim() === "" || !Number.isFinite(n)) throw new ConfigError(`${source} must be a number, got "${text}".`);
    return n;
  };
  if (kind === "number") return number(text);
  if (kind === "numbers") return text.trim() === "" ? [] : text.split(",").map(number);
  if (kind === "boolean") {
    if (/^(1|true|yes|on)$/i.test(text)) return true;
    if (/^(0|false|no|off)$/i.test(text)) return false;
    throw new ConfigError(`${source} must be true or false (on, off), got "${text}".`);
  }
  return text;
}

/** Checks one value against its setting's own schema, so the message names where it came from. */
function checked(s: Setting, value: unknown, source: string): unknown {
  const r = s.schema.safeParse(value);
  if (!r.success) throw new ConfigError(`${source}: ${r.error.issues[0].message}, got "${String(value)}".`);
  return value;
}

function put(layer: Record<string, unknown>, path: string[], value: unknown) {
  let at = layer;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]] = value;
}

export type Env = Record<string, string | undefined>;

/** The settings the environment gives, as a partial configuration. */
export function envLayer(tree: Tree, env: Env): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  for (const { path, setting: s } of entries(tree)) {
    const name = s.env?.find((n) => env[n] !== undefined && env[n] !== "");
    if (name) put(layer, path, checked(s, fromText(s, env[name]!, name), name));
  }
  return layer;
}

/** The name commander gives a flag's value ("--no-rate-limit" → rateLimit), asked of commander itself. */
export const flagAttribute = (flag: string): string => new Option(flag).attributeName();

/** The settings the flags give (as commander hands them over: only the ones given are set). */
export function flagLayer(tree: Tree, flags: Record<string, unknown>): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  for (const { path, setting: s } of entries(tree)) {
    if (!s.flag) continue;
    const value = flags[flagAttribute(s.flag)];
    if (value === undefined) continue;
    const name = s.flag.split(" ")[0];
    // commander sets a --no- flag's value to true unless it is given: only false is a choice.
    if (name.startsWith("--no-")) {
      if (value === false) put(layer, path, false);
      continue;
    }
    put(layer, path, checked(s, typeof value === "string" ? fromText(s, value, name) : value, name));
  }
  return layer;
}

/** The values a setting may take, when it is a choice among names. */
export function choices(s: Setting): string[] | undefined {
  const b = base(s.schema);
  return b instanceof z.ZodEnum ? (b.options as string[]) : undefined;
}

/** The default as the reference and --help say it. */
export function defaultText(s: Setting): string | undefined {
  if (s.defaultDoc) return s.defaultDoc;
  const r = s.schema.safeParse(undefined);
  if (!r.success || r.data === undefined) return undefined;
  if (typeof r.data === "boolean") return r.data ? "on" : "off";
  return Array.isArray(r.data) ? r.data.join(",") : String(r.data);
}
