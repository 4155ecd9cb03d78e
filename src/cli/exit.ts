// Exit codes, documented in `notula --help` and docs/reference/cli.md.
export const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3, auth: 4, timeout: 5, notServer: 6 } as const;

/**
 * The one mapping from an error the service reports (its HTTP status, from the API
 * or from a service called directly by \`notula admin\`) to an exit code. Usage (2)
 * is kept for what the command line itself gets wrong, found before anything runs.
 */
export function exitCodeFor(status: number): number {
  if (status === 401) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  // Refused for now (a rate limit, a busy server): worth the same retry as a time-out.
  if (status === 429 || status === 503) return EXIT.timeout;
  return EXIT.error;
}

/** An error the CLI reports as one line on stderr, then exits with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.error,
    /**
     * What the command has to show although it failed (a note that did not settle in
     * time, with its status): printed on stdout with --json, so a script keeps its id.
     */
    readonly partial?: unknown,
  ) {
    super(message);
  }
}

export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  error
  2  usage error or cancelled
  3  not found
  4  authentication needed
  5  worth a retry: the server did not answer in --timeout, a note did not settle in --wait-timeout,
     or the server still refused for now (429, 503) after backing off for up to two minutes
  6  the address is not a notula server (check --server)`;
