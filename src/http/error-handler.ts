// The one place where errors become HTTP responses: `{ error: { code, message } }`.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "../core/logger.js";
import {
  AppError,
  ConflictError,
  InsufficientStorageError,
  InternalError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitError,
  ServiceUnavailableError,
} from "../core/errors.js";
import { isDiskFull } from "../storage/audio-store.js";

function fromHttpException(err: HTTPException): AppError {
  switch (err.status) {
    case 400:
      return new AppError(
        400,
        "bad_request",
        /malformed json/i.test(err.message) ? "The request body is not valid JSON." : err.message || "Bad request.",
      );
    case 413:
      return new PayloadTooLargeError("The request body is too large.");
    case 415:
      return new AppError(
        415,
        "unsupported_media_type",
        "Send the body as JSON with 'Content-Type: application/json'.",
      );
    default:
      return new AppError(err.status, "error", err.message || "Request failed.");
  }
}

export function errorResponse(err: unknown, c: Context, logger: Logger) {
  let appErr: AppError;
  if (err instanceof AppError) appErr = err;
  else if (err instanceof HTTPException) appErr = fromHttpException(err);
  else if (isDiskFull(err) || isDiskFull((err as { cause?: unknown } | null)?.cause)) {
    // The write failed whole (a transaction rolls back; a partial file is removed): say so, not "internal error".
    logger.error(
      { err, requestId: c.get("requestId"), method: c.req.method, route: c.req.routePath },
      "out of disk space",
    );
    appErr = new InsufficientStorageError();
  } else {
    // Method, route and request id only: headers and bodies may carry keys and personal data.
    logger.error(
      { err, requestId: c.get("requestId"), method: c.req.method, route: c.req.routePath },
      "unexpected error",
    );
    appErr = new InternalError();
  }
  if (appErr instanceof RateLimitError) c.header("Retry-After", String(appErr.retryAfterSec));
  if ((appErr instanceof ServiceUnavailableError || appErr instanceof ConflictError) && appErr.retryAfterSec)
    c.header("Retry-After", String(appErr.retryAfterSec));
  // The rest of an oversize body is not read: the client must not send another request
  // on this connection (without this, clients that reuse it see it closed under them).
  if (appErr instanceof PayloadTooLargeError) c.header("Connection", "close");
  if (appErr instanceof MethodNotAllowedError) c.header("Allow", appErr.allow.join(", "));
  if (appErr.status === 401 && !c.res.headers.get("WWW-Authenticate"))
    c.header("WWW-Authenticate", 'Bearer realm="notula"');
  const body: Record<string, unknown> = {
    error: {
      code: appErr.code,
      message: appErr.message,
      ...(appErr instanceof ConflictError && appErr.noteId && { noteId: appErr.noteId }),
      ...(appErr instanceof ConflictError && appErr.current !== undefined && { current: appErr.current }),
    },
  };
  if (appErr instanceof RateLimitError) body.retry_after = appErr.retryAfterSec;
  return c.json(body, appErr.status as ContentfulStatusCode);
}
