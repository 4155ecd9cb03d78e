// The one error hierarchy. Services throw these; the HTTP layer maps them to
// `{ error: { code, message } }` in a single place (server/error-handler.ts).

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, "bad_request", message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "A valid API key is required: send it as 'Authorization: Bearer <key>'.") {
    super(401, "unauthorized", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, "forbidden", message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, "not_found", message);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(
    message: string,
    readonly allow: string[],
  ) {
    super(405, "method_not_allowed", message);
  }
}

export class ConflictError extends AppError {
  /** What the request conflicts with as it is now (a line edited by someone else): sent as error.current. */
  current?: unknown;
  constructor(
    message: string,
    /** The note the request conflicts with, when there is one (an import made before): sent as error.noteId. */
    readonly noteId?: string,
    /** Sent as Retry-After when set: the conflict ends by itself (another request finishing). */
    readonly retryAfterSec?: number,
  ) {
    super(409, "conflict", message);
  }

  withCurrent(current: unknown): this {
    this.current = current;
    return this;
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, "payload_too_large", message);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, "unsupported_media_type", message);
  }
}

export class RateLimitError extends AppError {
  constructor(readonly retryAfterSec: number) {
    super(429, "rate_limit_exceeded", `Rate limit exceeded; retry in ${retryAfterSec} s.`);
  }
}

export class InternalError extends AppError {
  constructor(message = "An internal error occurred.") {
    super(500, "internal_server_error", message);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(
    message: string,
    /** Sent as Retry-After when set. */
    readonly retryAfterSec?: number,
  ) {
    super(503, "service_unavailable", message);
  }
}

export class GatewayTimeoutError extends AppError {
  constructor(message: string) {
    super(504, "timeout", message);
  }
}

/** The disk (or the database's) is full: nothing of the request was kept. */
export class InsufficientStorageError extends AppError {
  constructor(
    message = "The server is out of disk space; nothing of this request was stored. Try again once space is freed.",
  ) {
    super(507, "insufficient_storage", message);
  }
}

/** A mistake in the configuration (flags, environment, config file): the CLI prints it and exits 2. */
export class ConfigError extends Error {}
