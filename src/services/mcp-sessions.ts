// MCP sessions of the streamable HTTP transport, recorded in the database: a session
// opened on one replica continues on any other, ends for all at DELETE, and expires
// after an idle half hour. Only a hash of the session id is kept.
import { createHash } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { Repositories } from "../db/repos/index.js";

export const MCP_SESSION_IDLE_MS = 30 * 60_000;
/** How stale a session's recorded expiry may grow before a request extends it. */
export const MCP_SESSION_TOUCH_MS = 60_000;
const hashOf = (id: string) => createHash("sha256").update(id).digest("base64url");

export function createMcpSessions(repos: Repositories, now: Clock) {
  return {
    async open(id: string, keyId: string): Promise<void> {
      const t = now();
      await repos.sharedState.putMcpSession({
        idHash: hashOf(id),
        keyId,
        createdAt: t,
        lastSeenAt: t,
        expiresAt: t + MCP_SESSION_IDLE_MS,
      });
    },
    /** Whether `keyId` may go on with session `id` (live, and opened by the same credential); extends it if so. */
    async resume(id: string, keyId: string): Promise<boolean> {
      const t = now();
      let row = await repos.sharedState.liveMcpSession(hashOf(id), t);
      // A write a request would cost a busy session a disk flush each call: its idle
      // time is extended once a minute at most (so it lasts 29 to 30 minutes idle).
      if (row && row.expiresAt < t + MCP_SESSION_IDLE_MS - MCP_SESSION_TOUCH_MS)
        row = await repos.sharedState.touchMcpSession(hashOf(id), t, MCP_SESSION_IDLE_MS);
      return row !== null && row.keyId === keyId;
    },
    async close(id: string): Promise<void> {
      await repos.sharedState.removeMcpSession(hashOf(id));
    },
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;
