// The last step of configuration: the public URL, once the listening address is
// known, and a frozen object from then on.
import type { Config, ResolvedConfig } from "./schema.js";

/** The base URL clients reach the server at: configured, else the address it listens on. */
export function resolvePublicUrl(
  config: Pick<Config, "publicUrl" | "host" | "port"> & { tls?: Config["tls"] },
  listening?: { address: string; family: string; port: number },
): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  const host = listening?.address ?? config.host;
  const family = listening?.family ?? (host.includes(":") ? "IPv6" : "IPv4");
  const scheme = config.tls?.certFile ? "https" : "http";
  return `${scheme}://${family === "IPv6" ? `[${host}]` : host}:${listening?.port ?? config.port}`;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export function resolveConfig(
  config: Config,
  listening?: { address: string; family: string; port: number },
): ResolvedConfig {
  return deepFreeze({ ...structuredClone(config), publicUrl: resolvePublicUrl(config, listening) });
}
