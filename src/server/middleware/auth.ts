import type { MiddlewareHandler } from "hono";
import type { ApiKeyService } from "../../services/api-keys.js";
import type { ScopeName } from "../../shared/schemas/workspace.js";
import { ForbiddenError, UnauthorizedError } from "../../core/errors.js";
import type { AppEnv } from "../context.js";

/** The key from `Authorization: Bearer <key>` or, for older clients, `X-API-Key`. */
export function presentedKey(authorization: string | undefined, xApiKey: string | undefined): string | null {
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return m ? m[1] : null;
  }
  return xApiKey?.trim() || null;
}

export function authenticate(apiKeys: ApiKeyService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = presentedKey(c.req.header("authorization"), c.req.header("x-api-key"));
    if (!key) throw new UnauthorizedError();
    const principal = apiKeys.authenticate(key);
    if (!principal) throw new UnauthorizedError("The API key is invalid or has been revoked.");
    c.set("principal", principal);
    await next();
  };
}

export function requireScope(scope: ScopeName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get("principal").scopes.has(scope))
      throw new ForbiddenError(`This API key lacks the '${scope}' scope needed for ${c.req.method} ${c.req.path}.`);
    await next();
  };
}

export const requireEnterprise: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("principal").plan !== "enterprise")
    throw new ForbiddenError("This operation is available on the Enterprise plan only.");
  await next();
};
