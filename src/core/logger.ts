// The one logger (pino): JSON lines on stderr (readable lines when stderr is a
// terminal), child loggers per request and per job with their ids bound, credentials
// redacted by configuration so that no call site has to remember.
import { pino, type DestinationStream, type Logger as PinoLogger } from "pino";
import pretty from "pino-pretty";
import { loggableError } from "./error-message.js";

export type Logger = PinoLogger;

/** Wherever these keys appear (one or two levels down), their values are never written. */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "apiKey",
  "key",
  "token",
  "access_token",
  "refresh_token",
  "client_secret",
  "code_verifier",
];
const REDACT = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

export interface LoggerOptions {
  level?: string;
  /** Defaults to stderr, written synchronously so that nothing is lost when the process ends. */
  destination?: DestinationStream;
  /** Human-readable lines instead of JSON; defaults to whether stderr is a terminal. */
  pretty?: boolean;
}

function stderr(human: boolean): DestinationStream {
  // Formatted in this thread and written synchronously, like the JSON lines: a log
  // transport's worker thread could lose the last lines when the process exits.
  if (human)
    return pretty({
      destination: 2,
      sync: true,
      colorize: true,
      translateTime: "SYS:HH:MM:ss.l",
      ignore: "pid,hostname,service",
    });
  return pino.destination({ dest: 2, sync: true });
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      level: opts.level ?? "info",
      base: { service: "notula" },
      redact: { paths: REDACT, censor: "[redacted]" },
      // A failed query is logged by its cause: drizzle's message carries the values.
      serializers: { err: (err) => pino.stdSerializers.err(loggableError(err) as Error) },
    },
    opts.destination ?? stderr(opts.pretty ?? Boolean(process.stderr.isTTY)),
  );
}

/** For code paths that must log somewhere but whose caller wants silence (one-shot admin commands). */
export const silentLogger = (): Logger => createLogger({ level: "silent" });
