// Exit codes, documented in `notula --help` and the README.
export const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3, auth: 4 } as const;

/** An error the CLI reports as one line on stderr, then exits with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.error,
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
  4  authentication needed`;
