// Access tokens: JWTs (RFC 9068, typ at+jwt) signed with a key derived from the data
// dir's secret, valid one hour, for one audience: this server's /mcp.
import { jwtVerify, SignJWT } from "jose";

export const ACCESS_TOKEN_TTL_SEC = 3600;

export interface AccessClaims {
  sub: string;
  client_id: string;
  scope: string;
  ws: string;
  /** The grant (the sign-in) the token belongs to: revoking it refuses the token before it runs out. */
  grant?: string;
}

export function createTokenSigner(derivedKey: Buffer, issuer: string) {
  const key = new Uint8Array(derivedKey);
  return {
    async sign(claims: AccessClaims, audience: string): Promise<string> {
      return new SignJWT({
        client_id: claims.client_id,
        scope: claims.scope,
        ws: claims.ws,
        ...(claims.grant ? { grant: claims.grant } : {}),
      })
        .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(claims.sub)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SEC}s`)
        .sign(key);
    },
    /** The claims of a valid token for `audience`, or null (bad signature, expired, wrong audience or issuer). */
    async verify(token: string, audience: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer, audience, typ: "at+jwt", algorithms: ["HS256"] });
        if (typeof payload.sub !== "string" || typeof payload.ws !== "string") return null;
        return {
          sub: payload.sub,
          client_id: String(payload.client_id),
          scope: String(payload.scope ?? ""),
          ws: payload.ws,
          grant: typeof payload.grant === "string" ? payload.grant : undefined,
        };
      } catch {
        return null;
      }
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
