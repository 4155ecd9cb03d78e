// Sign-ins in progress, in the database so that any replica can finish one: kept under
// a hash of their one-time key, sealed with the data dir's key (a PKCE verifier is a
// secret), and taken at most once.
import { createHash } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Repositories } from "../db/repos/index.js";
import type { PendingKind } from "../db/repos/shared-state.js";

const hashOf = (key: string) => createHash("sha256").update(key).digest("base64url");

export function createPendingStates(repos: Repositories, secrets: SecretBox, now: Clock) {
  return {
    async put(kind: PendingKind, key: string, value: unknown, ttlMs: number): Promise<void> {
      await repos.sharedState.putPending(
        kind,
        hashOf(key),
        { sealed: secrets.seal(JSON.stringify(value)) },
        now() + ttlMs,
      );
    },
    /** The value stored under `key`, once; null when unknown, used or expired. */
    async take<T>(kind: PendingKind, key: string): Promise<T | null> {
      const row = await repos.sharedState.takePending(kind, hashOf(key), now());
      if (!row || typeof row.sealed !== "string") return null;
      try {
        return JSON.parse(secrets.open(row.sealed)) as T;
      } catch {
        return null; // sealed with another key (a restored backup, say): start again
      }
    },
  };
}

export type PendingStates = ReturnType<typeof createPendingStates>;
