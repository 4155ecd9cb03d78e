// Idempotency-Key on note-creating POSTs, as Stripe's: a repeat within a day with the same
// key and body answers the note the first request made; another body under the same key
// is refused (409, naming that note). Keys are the caller's own (per person, per
// workspace) and kept as hashes. A key is claimed before the note is made, so two
// requests racing with one key make one note, on any replica; a failed request gives
// its key back, so that a retry can succeed.
import { createHash } from "node:crypto";
import type { Clock } from "../core/clock.js";
import { BadRequestError, ConflictError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Repositories } from "../db/repos/index.js";

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/**
 * A claim this old with no note is a dead request's (a request is cut at the request
 * time limit, a minute by default): the next request with the key makes the note.
 */
export const IDEMPOTENCY_CLAIM_ABANDONED_MS = 5 * 60_000;

const sha256 = (s: string) => createHash("sha256").update(s).digest("base64url");

/** JSON with its keys in order, so that the same body hashes the same however it was written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export function createIdempotency(repos: Repositories, now: Clock) {
  return {
    /**
     * Makes a note once per key: `make` runs for the first request; a repeat gets the
     * first note's id with `repeated: true`. Without a key, `make` just runs.
     */
    async once(
      p: Principal,
      key: string | undefined,
      request: { operation: string; body: unknown },
      make: () => Promise<string>,
    ): Promise<{ noteId: string; repeated: boolean }> {
      if (key === undefined) return { noteId: await make(), repeated: false };
      if (!key.length || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key))
        throw new BadRequestError(
          `Idempotency-Key: 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters without spaces.`,
        );
      const t = now();
      const row = {
        workspaceId: p.workspaceId,
        userId: p.userId,
        keyHash: sha256(key),
        requestHash: sha256(`${request.operation}\n${canonical(request.body)}`),
        noteId: null,
        createdAt: t,
        expiresAt: t + IDEMPOTENCY_KEY_TTL_MS,
      };
      // Twice at most: the claim another request held may be released between our two reads.
      for (let attempt = 0; ; attempt++) {
        const claim = await repos.idempotencyKeys.claim(row, t, t - IDEMPOTENCY_CLAIM_ABANDONED_MS);
        if (claim.claimed) break;
        const held = claim.row;
        if (!held && attempt === 0) continue;
        if (!held || held.noteId === null)
          throw new ConflictError(
            "Idempotency-Key: a request with this key is being answered at this moment; retry in a second for its note.",
            undefined,
            1,
          );
        if (held.requestHash !== row.requestHash)
          throw new ConflictError(
            "Idempotency-Key: this key was used in the last 24 hours for a request with another body (error.noteId names its note); send a new key for a new note.",
            held.noteId,
          );
        return { noteId: held.noteId, repeated: true };
      }
      try {
        const noteId = await make();
        await repos.idempotencyKeys.complete(row, noteId);
        return { noteId, repeated: false };
      } catch (err) {
        await repos.idempotencyKeys.release(row);
        throw err;
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
