// An SMTP server as people set it up (host, port, TLS or STARTTLS, user, password) and
// as nodemailer takes it (one smtp:// or smtps:// URL), and the transport that sends
// through it. A workspace's own server is set by its admins, so its host goes through
// the mail way out (net/outbound.ts), checked on the address actually connected to
// (resolved once per send and pinned, so that a name cannot be re-pointed in between).
import net from "node:net";
import type { Transporter } from "nodemailer";
import { isLocalName, PrivateAddressError, type Outbound } from "../net/outbound.js";

export interface SmtpServer {
  host: string;
  port: number;
  /** "tls": TLS from the first byte (smtps, usually 465); "starttls": upgraded when offered (usually 587). */
  security: "tls" | "starttls";
  username: string | null;
  password: string | null;
}

export class SmtpAddressError extends Error {}

const TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };

export function smtpUrl(s: SmtpServer): string {
  const auth = s.username
    ? `${encodeURIComponent(s.username)}${s.password ? `:${encodeURIComponent(s.password)}` : ""}@`
    : "";
  const host = net.isIPv6(s.host) ? `[${s.host}]` : s.host;
  return `${s.security === "tls" ? "smtps" : "smtp"}://${auth}${host}:${s.port}`;
}

/** Reads back what smtpUrl wrote (or NOTULA_SMTP_URL), or throws on anything else. */
export function parseSmtpUrl(raw: string): SmtpServer {
  const url = new URL(raw);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw new Error("must be smtp://… or smtps://…");
  const security = url.protocol === "smtps:" ? "tls" : "starttls";
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : security === "tls" ? 465 : 587,
    security,
    username: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
  };
}

/** nodemailer's transport for a URL the server's operator set (trusted: no address policy). */
export async function smtpTransport(url: string): Promise<Transporter> {
  const nodemailer = await import("nodemailer");
  return nodemailer.createTransport(url, TIMEOUTS);
}

/**
 * A transport for a server a workspace admin set: its host resolved now through the mail
 * way out, refused if every address is inside the host's networks (unless the operator
 * allows that), and the connection made to the checked address with TLS still verified
 * for the name.
 */
export async function pinnedSmtpTransport(s: SmtpServer, outbound: Outbound): Promise<Transporter> {
  let address: string;
  try {
    address = await outbound.pin(s.host);
  } catch (err) {
    if (err instanceof PrivateAddressError)
      throw new SmtpAddressError(
        isLocalName(s.host)
          ? `${s.host} is this machine, which a workspace's mail server may not be.`
          : `The mail server ${s.host} is on a private network, which it may not be here.`,
      );
    throw new SmtpAddressError(`The mail server ${s.host} could not be found.`);
  }
  const nodemailer = await import("nodemailer");
  return nodemailer.createTransport({
    host: address,
    port: s.port,
    secure: s.security === "tls",
    auth: s.username ? { user: s.username, pass: s.password ?? "" } : undefined,
    tls: net.isIP(s.host) ? undefined : { servername: s.host },
    ...TIMEOUTS,
  });
}
