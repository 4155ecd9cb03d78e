// `notula login --browser`: a signed-in member approves, in the browser, an API key
// for the CLI on their computer. The browser hands the CLI a one-time code on its
// loopback address; the CLI exchanges it, with the PKCE verifier only it holds, for
// the key. The key is made at that exchange, so no key waits anywhere in clear.
// Pending grants live two minutes in the database, so that any replica can finish one.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { BadRequestError } from "../core/errors.js";
import type { Principal, ScopeName } from "../core/principal.js";
import type { PendingStates } from "./pending.js";
import type { ApiKeyService } from "./api-keys.js";
import { scopesForRole as scopesFor } from "../core/access.js";

const GRANT_TTL_MS = 2 * 60_000;

/** A grant as stored: the principal with its scopes as a list. */
interface Grant {
  principal: Omit<Principal, "scopes"> & { scopes: ScopeName[] };
  role: "admin" | "member";
  name: string;
  challenge: string;
}

/** Only this computer's loopback may receive the code (RFC 8252). */
export function loopbackRedirect(raw: string): URL | null {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" &&
      (u.hostname === "127.0.0.1" || u.hostname === "localhost" || u.hostname === "[::1]") &&
      !u.username &&
      !u.password
      ? u
      : null;
  } catch {
    return null;
  }
}

export function createCliGrants(pending: PendingStates, apiKeys: ApiKeyService) {
  return {
    /** The member approved: a one-time code for the CLI's loopback. */
    async approve(
      principal: Principal,
      role: "admin" | "member",
      input: { name: string; challenge: string },
    ): Promise<string> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(input.challenge))
        throw new BadRequestError("The CLI sent no valid code challenge; run `notula login --browser` again.");
      const code = randomBytes(24).toString("base64url");
      const grant: Grant = {
        principal: { ...principal, scopes: [...principal.scopes] },
        role,
        name: input.name.slice(0, 80) || "notula CLI",
        challenge: input.challenge,
      };
      await pending.put("cli-grant", code, grant, GRANT_TTL_MS);
      return code;
    },

    /** Exchanges a code and its verifier for a new key with the member's own scopes; null for anything invalid. */
    async exchange(code: string, verifier: string) {
      // Taken at the first attempt, right or wrong: a code is tried once.
      const grant = await pending.take<Grant>("cli-grant", code);
      if (!grant) return null;
      const given = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
      const expected = Buffer.from(grant.challenge);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const principal: Principal = { ...grant.principal, scopes: new Set(grant.principal.scopes) };
      return await apiKeys.createOwn(principal, grant.role, { name: grant.name, scopes: scopesFor(grant.role) });
    },
  };
}

export type CliGrants = ReturnType<typeof createCliGrants>;
