// `notula login --browser`: a signed-in member approves, in the browser, an API key
// for the CLI on their computer. The browser hands the CLI a one-time code on its
// loopback address; the CLI exchanges it, with the PKCE verifier only it holds, for
// the key. The key is made at that exchange, so no key waits anywhere in clear.
// Pending grants live two minutes in this process (one server per data dir).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "../core/clock.js";
import { BadRequestError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import { scopesFor, type ApiKeyService } from "./api-keys.js";

const GRANT_TTL_MS = 2 * 60_000;

interface Grant {
  principal: Principal;
  role: "admin" | "member";
  name: string;
  challenge: string;
  expiresAt: number;
}

/** Only this computer's loopback may receive the code (RFC 8252). */
export function loopbackRedirect(raw: string): URL | null {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" && (u.hostname === "127.0.0.1" || u.hostname === "localhost" || u.hostname === "[::1]") && !u.username && !u.password ? u : null;
  } catch {
    return null;
  }
}

export function createCliGrants(apiKeys: ApiKeyService, now: Clock) {
  const grants = new Map<string, Grant>();
  const sweep = () => {
    for (const [code, g] of grants) if (g.expiresAt <= now()) grants.delete(code);
  };
  return {
    /** The member approved: a one-time code for the CLI's loopback. */
    approve(principal: Principal, role: "admin" | "member", input: { name: string; challenge: string }): string {
      if (!/^[A-Za-z0-9_-]{43}$/.test(input.challenge)) throw new BadRequestError("The CLI sent no valid code challenge; run `notula login --browser` again.");
      sweep();
      const code = randomBytes(24).toString("base64url");
      grants.set(code, { principal, role, name: input.name.slice(0, 80) || "notula CLI", challenge: input.challenge, expiresAt: now() + GRANT_TTL_MS });
      return code;
    },

    /** Exchanges a code and its verifier for a new key with the member's own scopes; null for anything invalid. */
    exchange(code: string, verifier: string) {
      sweep();
      const grant = grants.get(code);
      if (!grant) return null;
      grants.delete(code); // one attempt only
      const given = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
      const expected = Buffer.from(grant.challenge);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return apiKeys.createOwn(grant.principal, grant.role, { name: grant.name, scopes: scopesFor(grant.role) });
    },
  };
}

export type CliGrants = ReturnType<typeof createCliGrants>;
