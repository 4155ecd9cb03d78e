// Every connection notula opens to an address someone typed goes through here: one
// guarded way out per purpose (webhooks, calendars, mail, the AI, speech and embedding
// servers, model downloads), each with its own allow-private switch.
//
// A guarded way out checks addresses twice: when the address is saved (so the admin is
// told at once), and at connect time on the address actually connected to. The second
// check is what stops DNS rebinding: a name that resolved to a public address when it was
// saved and resolves to 127.0.0.1 when it is called is refused then. So is a redirect to
// a private address (a public server could answer 302 to one).
import dns from "node:dns";
import net from "node:net";
import { Agent, Headers as UndiciHeaders, fetch as undiciFetch, type RequestInit, type Response } from "undici";
import { isPrivateAddress } from "./address-policy.js";

/** What an outbound connection is for: each has its own operator switch. */
export type Purpose = "webhooks" | "calendars" | "mail" | "ai" | "speech" | "embeddings" | "models";

/**
 * Who chose the address: a workspace (its admins, through the API) is held to the
 * purpose's switch; the operator (the server's own configuration) may reach anything.
 */
export type Origin = "workspace" | "operator";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name stands for, in the resolver's order. */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export class PrivateAddressError extends Error {}

export type OutboundInit = Omit<RequestInit, "dispatcher">;

export interface Outbound {
  readonly purpose: Purpose;
  readonly allowPrivate: boolean;
  /** The connection pool, for clients that take a dispatcher (tsdav through fetch, undici). */
  readonly dispatcher: Agent;
  /** fetch through the guard; a guarded way out checks every redirect's target too. */
  fetch(url: string | URL, init?: OutboundInit): Promise<Response>;
  /** The private addresses a URL stands for now (none when private ones are allowed): what saving checks. */
  privateAddressesOf(url: URL): Promise<string[]>;
  /** One address of `host` that may be connected to, for a client that connects by address (SMTP). */
  pin(host: string): Promise<string>;
}

export interface Net {
  /** The way out for a purpose; the operator's own addresses are not held to the switch. */
  for(purpose: Purpose, origin?: Origin): Outbound;
}

const MAX_REDIRECTS = 5;

/** A name that is this machine by definition (RFC 6761), whatever a resolver says. */
export const isLocalName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Headers that carry a credential: not sent on to another origin when a redirect leads there. */
const CREDENTIALS = ["authorization", "cookie", "proxy-authorization"];

const withoutCredentials = (headers: OutboundInit["headers"]) => {
  const h = new UndiciHeaders(headers);
  for (const name of CREDENTIALS) h.delete(name);
  return h;
};

export interface NetOptions {
  /** Per purpose: may a workspace's address be on loopback or a private network? (default no) */
  allowPrivate?: Partial<Record<Purpose, boolean>>;
  /** How names are resolved; the system's unless given (tests resolve names their own way). */
  resolve?: Resolve;
  /**
   * Which addresses are private: the address policy's unless given (a test may stand a
   * server on 127.0.0.1 in for a public one, to follow a guarded way out end to end).
   */
  isPrivate?: (ip: string) => boolean;
}

export function createNet(opts: NetOptions = {}): Net {
  const resolve = opts.resolve ?? systemResolve;
  const isPrivate = opts.isPrivate ?? isPrivateAddress;
  const made = new Map<string, Outbound>();

  /** undici's connect-time lookup, over `resolve`, refusing private addresses unless allowed. */
  const lookupFor = (allowPrivate: boolean): typeof dns.lookup =>
    ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      resolve(hostname).then(
        (list) => {
          const blocked = allowPrivate ? undefined : list.find((a) => isPrivate(a.address));
          if (blocked)
            return callback(new PrivateAddressError(`${hostname} resolves to the private address ${blocked.address}`));
          if (!list.length)
            return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }));
          if (options.all) return callback(null, list);
          callback(null, list[0].address, list[0].family);
        },
        (err) => callback(err),
      );
    }) as typeof dns.lookup;

  function build(purpose: Purpose, allowPrivate: boolean): Outbound {
    // A literal private IP never goes through lookup: the guard must refuse it before connecting.
    const dispatcher = new Agent({ connections: 16, connect: { lookup: lookupFor(allowPrivate) } });
    const refuseLiteral = (host: string) => {
      const bare = host.replace(/^\[|\]$/g, "");
      if (!allowPrivate && (isLocalName(bare) || (net.isIP(bare) && isPrivate(bare))))
        throw new PrivateAddressError(`${bare} is a private address`);
    };
    return {
      purpose,
      allowPrivate,
      dispatcher,
      async fetch(url, init = {}) {
        if (allowPrivate) return undiciFetch(url, { ...init, dispatcher });
        // Redirects are followed here, hop by hop, so that each target is checked: a
        // literal IP never reaches the connect-time lookup.
        const follow = (init.redirect ?? "follow") === "follow" && /^(GET|HEAD)$/i.test(init.method ?? "GET");
        const first = new URL(url);
        let target = first;
        for (let hop = 0; ; hop++) {
          refuseLiteral(target.hostname);
          // As fetch itself does: a credential goes to its own origin, not to where a redirect points.
          const headers = target.origin === first.origin ? init.headers : withoutCredentials(init.headers);
          const res = await undiciFetch(target, { ...init, headers, redirect: "manual", dispatcher });
          const location = res.headers.get("location");
          if (!follow || !location || res.status < 300 || res.status > 399 || hop === MAX_REDIRECTS) return res;
          await res.body?.cancel().catch(() => {});
          target = new URL(location, target);
        }
      },
      async privateAddressesOf(url) {
        if (allowPrivate) return [];
        const host = url.hostname.replace(/^\[|\]$/g, "");
        if (net.isIP(host)) return isPrivate(host) ? [host] : [];
        if (isLocalName(host)) return [host];
        // A name that does not resolve now yields none: the connection checks again.
        const list = await resolve(host).catch(() => [] as ResolvedAddress[]);
        return list.map((a) => a.address).filter(isPrivate);
      },
      async pin(host) {
        refuseLiteral(host);
        if (net.isIP(host)) return host;
        const list = await resolve(host).catch(() => [] as ResolvedAddress[]);
        if (!list.length) throw Object.assign(new Error(`${host} could not be found`), { code: "ENOTFOUND" });
        const usable = allowPrivate ? list : list.filter((a) => !isPrivate(a.address));
        if (!usable.length) throw new PrivateAddressError(`${host} resolves to the private address ${list[0].address}`);
        return usable[0].address;
      },
    };
  }

  return {
    for(purpose, origin = "workspace") {
      const allowPrivate = origin === "operator" || opts.allowPrivate?.[purpose] === true;
      const key = `${purpose}:${allowPrivate}`;
      let out = made.get(key);
      if (!out) made.set(key, (out = build(purpose, allowPrivate)));
      return out;
    },
  };
}

/** The deepest cause of a failed connection: undici wraps the lookup's error. */
export function connectionCause(err: unknown): unknown {
  let e = err as { cause?: unknown } | undefined;
  for (let i = 0; i < 5 && e?.cause; i++) e = e.cause as { cause?: unknown };
  return e;
}

/** Whether a failed call was refused by the guard (a private address), not by the network. */
export const refusedAsPrivate = (err: unknown) =>
  err instanceof PrivateAddressError || connectionCause(err) instanceof PrivateAddressError;
