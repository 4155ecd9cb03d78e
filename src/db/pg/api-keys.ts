// The statement every API request starts with, on PostgreSQL: a key, its workspace's
// plan, its holder's role and the private folders they are outside of, in one round
// trip, as a named statement prepared once per connection. Between changes to those
// facts it is answered from memory (fact-changes.ts): a revocation, a new plan or a
// folder's members drop what is kept, on every replica, as the change commits.
import { sql } from "drizzle-orm";
import type { KeyWithPlan } from "../repos/api-keys.js";
import { parseIdList } from "../repos/hidden-folders.js";
import type { PgRows } from "./connection.js";
import type { AsyncReadCache } from "../repos/portable.js";

interface Row extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  display_prefix: string;
  key_hash: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  plan: KeyWithPlan["plan"];
  /** A json column: the driver parses it. */
  settings: Record<string, unknown>;
  role: KeyWithPlan["role"];
  hidden: string | null;
}

const orNull = (v: string | null) => (v === null ? null : Number(v));

export function pgKeyLookup(rows: PgRows, cache?: AsyncReadCache<KeyWithPlan>) {
  const lookup = async (hash: string): Promise<KeyWithPlan | null> => {
    const [r] = await rows<Row>(sql`
      SELECT k.id, k.workspace_id, k.user_id, k.name, k.display_prefix, k.key_hash, k.scopes, k.created_at,
             k.last_used_at, k.revoked_at, w.plan, w.settings, m.role,
             (SELECT string_agg(f.id, ',') FROM folders f
              WHERE f.workspace_id = k.workspace_id AND f.is_private
                AND NOT EXISTS (SELECT 1 FROM folder_members fm WHERE fm.folder_id = f.id AND fm.user_id = k.user_id)) AS hidden
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      LEFT JOIN members m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
      WHERE k.key_hash = ${hash}`);
    if (!r) return null;
    return {
      id: r.id,
      workspaceId: r.workspace_id,
      userId: r.user_id,
      name: r.name,
      displayPrefix: r.display_prefix,
      keyHash: r.key_hash,
      scopes: r.scopes,
      createdAt: Number(r.created_at),
      lastUsedAt: orNull(r.last_used_at),
      revokedAt: orNull(r.revoked_at),
      plan: r.plan,
      role: r.role,
      hiddenFolderIds: parseIdList(r.hidden),
      workspaceSettings: r.settings,
    };
  };
  return (hash: string): Promise<KeyWithPlan | null> => (cache ? cache.get(hash, () => lookup(hash)) : lookup(hash));
}
