// Who a presented token speaks for. REST takes API keys; MCP also takes the access
// tokens of its OAuth authorization server.
import type { Principal } from "../core/principal.js";
import type { ApiKeyService } from "./api-keys.js";
import type { OAuthService } from "./oauth/service.js";

export function createAuthentication(apiKeys: ApiKeyService, oauth: OAuthService) {
  return {
    /** An API key's principal, or null when it is unknown or revoked. */
    apiKey(token: string): Promise<Principal | null> {
      return apiKeys.authenticate(token);
    },
    /** An API key's or a valid OAuth access token's principal, else null. */
    async mcp(token: string): Promise<Principal | null> {
      return (await apiKeys.authenticate(token)) ?? (await oauth.principalOf(token));
    },
  };
}

export type Authentication = ReturnType<typeof createAuthentication>;
