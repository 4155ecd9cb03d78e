// Shapes used across resources. Defined once with zod: the server validates with
// them, the OpenAPI document is generated from them, the CLI and MCP reuse them.
import { z } from "zod";

/** A rejected value as an error message quotes it: short enough to read, whatever was sent. */
const shown = (raw: string) => JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().meta({ example: "bad_request" }),
      message: z.string().meta({ example: "limit: must be between 1 and 100" }),
      noteId: z
        .string()
        .optional()
        .meta({ description: "On a 409: the note the request conflicts with (a file imported before became it)." }),
    }),
  })
  .meta({ id: "Error" });

export const Pagination = z
  .object({
    limit: z.number().int(),
    nextOffset: z.number().int().nullable(),
    isLast: z.boolean(),
  })
  .meta({ id: "Pagination" });

export const SuccessMessage = z.object({ success: z.boolean(), message: z.string() }).meta({ id: "SuccessMessage" });

export const Iso = z.string().meta({ format: "date-time", example: "2026-03-01T09:30:00.000Z" });

// The query helpers below read a query string's text, and also the typed values an
// MCP tool call sends (a number, an array), so that REST and MCP share one schema.

/** A query-string integer with a clear message for "abc", "1.5" or out-of-range values. */
export function queryInt(min: number, max: number | undefined, def: number) {
  const range = max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
  return z
    .union([z.string(), z.number()])
    .optional()
    .transform((given, ctx) => {
      if (given === undefined) return def;
      const raw = String(given);
      if (!/^-?\d+$/.test(raw.trim())) {
        ctx.addIssue({ code: "custom", message: `must be a whole number ${range}, got ${shown(raw)}` });
        return z.NEVER;
      }
      const n = Number(raw);
      if (n < min || (max !== undefined && n > max)) {
        ctx.addIssue({ code: "custom", message: `must be ${range}, got ${n}` });
        return z.NEVER;
      }
      return n;
    })
    .meta({
      description: `${range}; default ${def}`,
      type: "integer",
      minimum: min,
      ...(max === undefined ? {} : { maximum: max }),
      default: def,
    } as Record<string, unknown>);
}

/** Far past any real list, and within every database's integers: a larger offset is refused with 400. */
export const MAX_OFFSET = 1_000_000_000;

export const PageQuery = z.object({
  limit: queryInt(1, 100, 20),
  offset: queryInt(0, MAX_OFFSET, 0),
});

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch milliseconds of an ISO 8601 date or date-time that names a real day and time;
 * null otherwise. Date.parse alone rolls 2026-02-30 over into March.
 */
export function isoDateMs(raw: string): number | null {
  const m = ISO_DATE.exec(raw);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  if (Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) return null;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : ms;
}

/** An ISO 8601 date or date-time in a query string, parsed to epoch milliseconds. */
/** A yes-or-no query parameter: true or false (a tool call may send the boolean), default false. */
export function queryFlag(description: string) {
  return z
    .union([z.enum(["true", "false"], { message: "must be true or false" }), z.boolean()])
    .optional()
    .transform((v) => v === true || v === "true")
    .meta({ description: `${description} true or false; default false`, type: "boolean" } as Record<string, unknown>);
}

export function queryDate(description: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return undefined;
      const ms = isoDateMs(raw);
      if (ms === null) {
        ctx.addIssue({
          code: "custom",
          message: `must be a real day in ISO 8601, such as 2026-03-01, 2026-03-01T09:30:00Z or 2026-03-01T10:30:00+01:00; got ${shown(raw)}`,
        });
        return z.NEVER;
      }
      return ms;
    })
    .meta({ description, type: "string", format: "date-time" } as Record<string, unknown>);
}

/** A comma-separated list of ids in a query string (or, from MCP, an array of them). */
export function queryIdList(description: string, max = 100) {
  return z
    .union([z.string(), z.array(z.string().max(200))])
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const ids = [...new Set((typeof raw === "string" ? raw.split(",") : raw).map((s) => s.trim()).filter(Boolean))];
      if (ids.length > max) {
        ctx.addIssue({ code: "custom", message: `at most ${max} ids, got ${ids.length}` });
        return z.NEVER;
      }
      return ids;
    })
    .meta({ description, type: "string" } as Record<string, unknown>);
}

export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .meta({ param: { name: "id", in: "path" } }),
});

export const HexColor = z
  .string()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "must be a hex colour such as #4F46E5");

/** The Idempotency-Key header of a note-creating POST (services/idempotency.ts). */
export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().meta({
    description:
      "Makes the request safe to send again: a repeat within 24 hours with the same key and body answers the note the first one made (with Idempotent-Replayed: true); the same key with another body is refused with 409. The body compared leaves out audioUrl (a retried upload sends the file again under a new URL). 1 to 255 printable ASCII characters, the caller's own.",
    example: "upload-9f2c1e",
  }),
});
