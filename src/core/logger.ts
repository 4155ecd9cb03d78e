// The one logger (pino): JSON lines on stderr, child loggers per request and per job
// with their ids bound, credentials redacted by configuration so that no call site
// has to remember.
import { pino, type DestinationStream, type Logger as PinoLogger } from "pino";

export type Logger = PinoLogger;

/** Wherever these keys appear (one or two levels down), their values are never written. */
const SECRET_KEYS = ["authorization", "cookie", "password", "secret", "apiKey", "key", "token", "access_token", "refresh_token", "client_secret", "code_verifier"];
const REDACT = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

export interface LoggerOptions {
  level?: string;
  /** Defaults to stderr, written synchronously so that nothing is lost when the process ends. */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      level: opts.level ?? "info",
      base: { service: "notula" },
      redact: { paths: REDACT, censor: "[redacted]" },
      serializers: { err: pino.stdSerializers.err },
    },
    opts.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/** For code paths that must log somewhere but whose caller wants silence (one-shot admin commands). */
export const silentLogger = (): Logger => createLogger({ level: "silent" });
