// Builds the config from, in order of precedence: command-line flags, the
// environment, a JSON config file, and the schema's defaults; every setting's place
// in each is declared once, in config/settings.ts.
import { ConfigError } from "../core/errors.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { configSchema, type Config } from "./schema.js";
import { envLayer, flagLayer, type Env, type Tree } from "./setting.js";
import { SETTINGS } from "./settings.js";

export type { Env };

/** Flags as commander hands them over (camel-cased; only the ones given are set). */
export type ConfigFlags = Record<string, unknown> & { dataDir?: string; database?: string; config?: string };

export function defaultDataDir(env: Env = process.env): string {
  if (env.NOTULA_DATA_DIR) return env.NOTULA_DATA_DIR;
  const base = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share");
  return path.join(base, "notula");
}

// Defined in core, below every layer that reports a configuration mistake; exported here for the commands that load config.
export { ConfigError };

type Layer = Record<string, unknown>;

function fileLayer(file: string, required: boolean): Layer {
  if (!fs.existsSync(file)) {
    if (required) throw new ConfigError(`Config file ${file} does not exist.`);
    return {};
  }
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Layer;
  } catch (err) {
    throw new ConfigError(`Config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Deep-merges layers; later layers win, undefined never overrides. */
function merge(...layers: Layer[]): Layer {
  const out: Layer = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      if (value && typeof value === "object" && !Array.isArray(value)) {
        const nested = merge((out[key] as Layer) ?? {}, value as Layer);
        // An object of only unset values must not hide the schema's default.
        if (Object.keys(nested).length) out[key] = nested;
      } else {
        out[key] = value;
      }
    }
  }
  return out;
}

/** Keys of a config file the table does not have, each with the keys it does: a typo must not pass silently. */
function unknownKeys(value: unknown, tree: Tree, at: string): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const known = Object.keys(tree).filter((k) => {
    const node = tree[k];
    return node.kind === "group" || !node.notInFile;
  });
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    const node = known.includes(key) ? tree[key] : undefined;
    if (!node) out.push(`unknown key "${path}" (known${at ? ` in ${at}` : ""}: ${known.join(", ")})`);
    else if (node.kind === "group") out.push(...unknownKeys(inner, node.children, path));
  }
  return out;
}

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const envL = envLayer(SETTINGS, env);
  const flagL = flagLayer(SETTINGS, flags);
  const dataDir = path.resolve(flags.dataDir ?? defaultDataDir(env));
  const named = (flagL.configFile ?? envL.configFile) as string | undefined;
  const configFile = named ?? path.join(dataDir, "config.json");
  const fileL = fileLayer(configFile, Boolean(named));
  const unknown = unknownKeys(fileL, SETTINGS, "");
  if (unknown.length) throw new ConfigError(`Config file ${configFile}: ${unknown.join("; ")}.`);
  const merged = merge(fileL, envL, flagL, { dataDir, configFile: fs.existsSync(configFile) ? configFile : undefined });
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}
