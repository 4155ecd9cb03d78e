// Reading the credential a request presents, the same way on every surface.

/** The token from `Authorization: Bearer <token>` or, for older clients, `X-API-Key`. */
export function presentedToken(authorization: string | undefined, xApiKey: string | undefined): string | null {
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return m ? m[1] : null;
  }
  return xApiKey?.trim() || null;
}
