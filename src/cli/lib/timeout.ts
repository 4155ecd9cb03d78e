// How long the CLI waits: for each request to the server (--timeout, NOTULA_TIMEOUT,
// 30 s by default), and for a note to settle with --wait (the same limit when it is
// given, else an hour), so that a CI job fails instead of hanging.
import { CliError, EXIT } from "../exit.js";
import { environment } from "../../config/environment.js";

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

export function timeoutsFrom(flags: { timeout?: string }): Timeouts {
  const fromFlag = flags.timeout !== undefined;
  const raw = fromFlag ? flags.timeout : environment().timeout;
  if (raw === undefined || raw === "")
    return { requestMs: DEFAULT_TIMEOUT_SEC * 1000, waitMs: DEFAULT_WAIT_SEC * 1000 };
  const sec = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(sec > 0) || sec > MAX_SEC)
    throw new CliError(
      `${fromFlag ? "--timeout" : "NOTULA_TIMEOUT"}: seconds, more than 0 and at most ${MAX_SEC} (got "${raw}").`,
      EXIT.usage,
    );
  return { requestMs: sec * 1000, waitMs: sec * 1000 };
}
