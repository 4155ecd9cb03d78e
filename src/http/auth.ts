import type { MiddlewareHandler } from "hono";
import { presentedToken } from "../core/credentials.js";
import type { Authentication } from "../services/authentication.js";
import type { ScopeName } from "../core/principal.js";
import { ForbiddenError, UnauthorizedError } from "../core/errors.js";
import type { AppEnv } from "./context.js";

export function authenticate(auth: Authentication): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = presentedToken(c.req.header("authorization"), c.req.header("x-api-key"));
    if (!key) throw new UnauthorizedError();
    const principal = await auth.apiKey(key);
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
