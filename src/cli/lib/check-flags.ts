// Flags checked before anything connects, against the schema the server checks the
// same values with: a bad date, choice or limit is a usage error (exit 2) naming the
// flag, not a 400 naming the API's field.
import { z } from "zod";
import { CliError, EXIT } from "../exit.js";
import { describeZodError } from "../../shared/describe-zod-error.js";

/** One flag's value, checked by the schema of the field it sets (an enum, a date…). */
export function checkFlag(flag: string, value: unknown, schema: z.ZodType): void {
  if (value !== undefined) checkFlags(z.object({ value: schema }), { value }, { value: flag });
}

/** --limit and --offset, checked as every paged endpoint checks them. */
export async function checkPage(f: { limit?: string; offset?: string }): Promise<void> {
  const { PageQuery } = await import("../../shared/schemas/common.js");
  checkFlags(PageQuery, { limit: f.limit, offset: f.offset }, { limit: "--limit", offset: "--offset" });
}

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
