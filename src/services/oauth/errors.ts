// OAuth errors, one class per RFC 6749 error code, each rendering its own body.
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: number = 400,
  ) {
    super(description);
  }
  body() {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (d: string) => new OAuthError("invalid_request", d);
export const invalidClient = (d: string, status = 401) => new OAuthError("invalid_client", d, status);
export const invalidGrant = (d: string) => new OAuthError("invalid_grant", d);
export const invalidScope = (d: string) => new OAuthError("invalid_scope", d);
export const unsupportedGrantType = (d: string) => new OAuthError("unsupported_grant_type", d);
export const invalidRedirectUri = (d: string) => new OAuthError("invalid_redirect_uri", d);
export const invalidClientMetadata = (d: string) => new OAuthError("invalid_client_metadata", d);
