// What an error may say outside the process (logs, job records, a note's processingError).
// A failed database query arrives from drizzle as "Failed query: <sql> params: <values>",
// and the values are note text, transcripts or sealed secrets: only the database's own
// reason and the statement's first words go further.
import { DrizzleQueryError } from "drizzle-orm/errors";

const QUERY_HEAD = 80;

function queryHead(query: string): string {
  const oneLine = query.replace(/\s+/g, " ").trim();
  return oneLine.length > QUERY_HEAD ? `${oneLine.slice(0, QUERY_HEAD)}…` : oneLine;
}

/** The error's message, with a failed query's parameters left out. */
export function safeErrorMessage(err: unknown): string {
  if (err instanceof DrizzleQueryError)
    return `database error: ${err.cause?.message ?? "query failed"} (in: ${queryHead(err.query)})`;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Absolute file paths (POSIX, Windows, file: URLs) as they appear in engines' and ffmpeg's messages. */
const ABSOLUTE_PATH =
  /(?:file:\/\/)?(?:\/(?:[^\s/'"`:;,()[\]]+\/)+[^\s/'"`:;,()[\]]*|[A-Za-z]:\\(?:[^\s\\'"`:;,()[\]]+\\)+[^\s\\'"`:;,()[\]]*)/g;
const PUBLIC_MAX = 500;

/**
 * What a failure may say to the people who use the service (a note's processingError,
 * an API answer): the reason without the server's file paths, which tell an attacker
 * where the data lives, cut to a readable length.
 */
export function publicErrorMessage(err: unknown): string {
  const message = safeErrorMessage(err).replace(ABSOLUTE_PATH, "[file]").replace(/\s+/g, " ").trim();
  return message.length > PUBLIC_MAX ? `${message.slice(0, PUBLIC_MAX - 1)}…` : message;
}

/** The error as the logger writes it: a failed query becomes its cause, named by its statement. */
export function loggableError(err: unknown): unknown {
  if (!(err instanceof DrizzleQueryError)) return err;
  const cause = err.cause ?? new Error("query failed");
  return Object.assign(Object.create(Object.getPrototypeOf(cause)), cause, {
    message: safeErrorMessage(err),
    stack: `${safeErrorMessage(err)}\n${(cause.stack ?? "").split("\n").slice(1).join("\n")}`,
  });
}
