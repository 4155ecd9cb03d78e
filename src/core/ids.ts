import { randomBytes } from "node:crypto";

/** Opaque identifiers: a short type prefix (for humans reading logs) and 96 random bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}
