// Flags checked before anything connects, against the schema the server checks the
// same values with: a bad date, choice or limit is a usage error (exit 2) naming the
// flag, not a 400 naming the API's field.
import type { z } from "zod";
import { CliError, EXIT } from "../exit.js";
import { describeZodError } from "../../shared/describe-zod-error.js";

/** Throws a usage error naming the flag (`flagOf[field]`) of each value the schema refuses. */
export function checkFlags(schema: z.ZodType, values: Record<string, unknown>, flagOf: Record<string, string>): void {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const result = schema.safeParse(given);
  if (!result.success)
    throw new CliError(
      describeZodError(result.error, (path) => flagOf[String(path[0])] ?? path.join(".")),
      EXIT.usage,
    );
}
