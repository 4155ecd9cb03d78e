// Which addresses lie inside the host's own networks (SSRF): loopback, private,
// link-local, carrier-grade NAT, unique-local, reserved and cloud metadata addresses.
// Decided on normalized addresses (ipaddr.js parses every spelling): an IPv6 address
// that carries an IPv4 one (mapped, compatible, NAT64, 6to4) is judged by the IPv4
// address inside it, and the tunnelling ranges that can reach anything (Teredo, the
// local-use NAT64 prefix, the deprecated IPv4-compatible block) are refused whole.
import net from "node:net";
import ipaddr from "ipaddr.js";

/** The only IPv4 range kinds a guarded connection may reach. */
const PUBLIC_V4 = new Set(["unicast"]);
/** IPv6 range kinds reachable on the internet (the embedded-IPv4 ones are unwrapped first). */
const PUBLIC_V6 = new Set(["unicast"]);

/** The IPv4 address an IPv6 address carries, where it carries one by a standard that routes it. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = v6.toByteArray();
  const v4 = (at: number) => new ipaddr.IPv4(b.slice(at, at + 4));
  const range = v6.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return v4(12);
  // 64:ff9b::/96 (RFC 6052): the well-known NAT64 prefix, the address in the last 32 bits.
  if (range === "rfc6052" && b.slice(4, 12).every((x) => x === 0)) return v4(12);
  // 2002::/16 (6to4): the address in bits 16 to 48.
  if (range === "6to4") return v4(2);
  return null;
}

export function isPrivateAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!net.isIP(bare)) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(bare);
  } catch {
    return true; // net.isIP accepted what ipaddr.js cannot read: refuse rather than guess
  }
  if (addr.kind() === "ipv4") return !PUBLIC_V4.has(addr.range());
  const v6 = addr as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner) return !PUBLIC_V4.has(inner.range());
  // ::/96 (IPv4-compatible, deprecated by RFC 4291; ::1 and :: among it): nothing public lives there.
  if (
    v6
      .toByteArray()
      .slice(0, 12)
      .every((x) => x === 0)
  )
    return true;
  return !PUBLIC_V6.has(v6.range());
}
