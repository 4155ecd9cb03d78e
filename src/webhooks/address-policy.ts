// Refuses webhook targets inside the host's own networks (SSRF): loopback, private,
// link-local, carrier-grade NAT, unique-local and cloud metadata addresses.
import { lookup } from "node:dns/promises";
import net from "node:net";

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(addr, prefix, "ipv4");
for (const [addr, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(addr, prefix, "ipv6");

export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return blocked.check(mapped[1], "ipv4");
    return blocked.check(ip, "ipv6");
  }
  return false;
}

/**
 * The private addresses a URL's host stands for. A literal IP is checked as is; a
 * name is resolved. A name that does not resolve now yields none: delivery checks again.
 */
export async function privateAddressesOf(url: URL): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return isPrivateAddress(host) ? [host] : [];
  if (host === "localhost" || host.endsWith(".localhost")) return [host];
  try {
    const addrs = await lookup(host, { all: true, verbatim: true });
    return addrs.map((a) => a.address).filter(isPrivateAddress);
  } catch {
    return [];
  }
}
