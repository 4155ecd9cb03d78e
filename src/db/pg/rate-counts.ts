// The count every limited API request makes, on PostgreSQL (where replicas share it):
// the slot counted and the key's window read back in one statement, one round trip. The
// SELECT of a statement sees the table as it was before its own INSERT, so the slot
// just counted comes from the INSERT's RETURNING and the others from the table.
import { sql } from "drizzle-orm";
import type { PgRows } from "./connection.js";

type Slots = { start: number; count: number }[];

// A named statement (`rows`): parsed and planned once per connection, not on every request.
export function pgAddCountAndRead(rows: PgRows) {
  return async (key: string, slotStart: number, expiresAt: number, from: number, amount = 1): Promise<Slots> => {
    const found = await rows<{ start: string | number; count: number }>(sql`
      WITH added AS (
        INSERT INTO rate_counters (key, window_start, count, expires_at)
        VALUES (${key}, ${slotStart}, ${amount}::int, ${expiresAt})
        ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + ${amount}::int
        RETURNING window_start, count
      )
      SELECT window_start AS start, count FROM added
      UNION ALL
      SELECT window_start, count FROM rate_counters
      WHERE key = ${key} AND window_start >= ${from} AND window_start <> ${slotStart} AND count > 0
      ORDER BY start`);
    return found.map((r) => ({ start: Number(r.start), count: Number(r.count) }));
  };
}
