// How long the CLI waits: for each request to the server (--timeout, NOTULA_TIMEOUT,
// 30 s by default), and for a note to settle with --wait (--wait-timeout,
// NOTULA_WAIT_TIMEOUT, an hour by default), so that a CI job fails instead of hanging,
// with its own exit code (5) that a script can retry on.
import { CliError, EXIT } from "../exit.js";
import { CLI_ENVIRONMENT, environment } from "../../config/environment.js";

export const DEFAULT_TIMEOUT_SEC = 30;
/** --wait without --timeout: long enough for a long meeting's processing, not forever. */
export const DEFAULT_WAIT_SEC = 3600;
const MAX_SEC = 7 * 24 * 3600;

export interface Timeouts {
  /** Longest a request may go without an answer. */
  requestMs: number;
  /** Longest --wait follows a note. */
  waitMs: number;
}

export function timeoutsFrom(flags: { timeout?: string; waitTimeout?: string }): Timeouts {
  return {
    requestMs: seconds(flags.timeout, "--timeout", "timeout", DEFAULT_TIMEOUT_SEC) * 1000,
    waitMs: seconds(flags.waitTimeout, "--wait-timeout", "waitTimeout", DEFAULT_WAIT_SEC) * 1000,
  };
}

/** A limit in seconds from its flag, else its environment variable, else the default. */
function seconds(flag: string | undefined, flagName: string, variable: "timeout" | "waitTimeout", fallback: number) {
  const raw = flag ?? environment()[variable];
  if (raw === undefined || raw === "") return fallback;
  const sec = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(sec > 0) || sec > MAX_SEC)
    throw new CliError(
      `${flag !== undefined ? flagName : CLI_ENVIRONMENT[variable].name}: seconds, more than 0 and at most ${MAX_SEC} (got "${raw}").`,
      EXIT.usage,
    );
  return sec;
}
