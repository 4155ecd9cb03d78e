// A search's cursor: the offset of its next page, bound to the caller and the query it
// was given for, so that it cannot be carried to another search or workspace.
import { createHash } from "node:crypto";
import type { Principal } from "../core/principal.js";
import { BadRequestError } from "../core/errors.js";
import type { SearchParams } from "../shared/schemas/search.js";

export function cursorFingerprint(p: Principal, params: SearchParams): string {
  const { cursor: _c, ...rest } = params;
  return createHash("sha256")
    .update(JSON.stringify([p.workspaceId, p.userId, rest]))
    .digest("base64url")
    .slice(0, 16);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint })).toString("base64url");
}

export function decodeCursor(cursor: string | undefined, fingerprint: string): number {
  if (!cursor) return 0;
  try {
    const { o, f } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o: unknown; f: unknown };
    if (f === fingerprint && typeof o === "number" && Number.isInteger(o) && o >= 0 && o <= 10_000) return o;
  } catch {
    // Falls through to the error below.
  }
  throw new BadRequestError(
    "cursor: not a cursor of this search (it belongs to another query, filter or workspace); start again without it.",
  );
}
