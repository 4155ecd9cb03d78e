// A failed validation as one line naming each field (the API's 400 message), or each
// flag where the caller names them (the CLI checks its flags against the same schemas).
import type { z } from "zod";

/** "limit: must be between 1 and 100; sortBy: invalid option …; tagz: unknown field …" */
export function describeZodError(
  error: z.ZodError,
  nameOf: (path: PropertyKey[]) => string = (p) => p.join("."),
): string {
  return error.issues
    .slice(0, 5)
    .flatMap((i) => {
      const where = i.path.length ? nameOf(i.path) : "body";
      // A field the operation does not know is named, never dropped: a misspelt folderIds must not file a note nowhere.
      if (i.code === "unrecognized_keys")
        return i.keys.map((k) => `${nameOf([...i.path, k])}: unknown field; this operation does not take it`);
      if (i.code === "invalid_value" && "values" in i)
        return `${where}: must be one of ${(i.values as unknown[]).map(String).join(", ")}`;
      if (i.code === "invalid_type")
        return /received undefined/.test(i.message)
          ? `${where}: is required`
          : `${where}: must be ${i.expected === "object" ? "an object" : `a ${i.expected}`}`;
      return `${where}: ${i.message}`;
    })
    .join("; ");
}
