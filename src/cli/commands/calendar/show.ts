// How one calendar reads on a terminal, after add and sync.
import { info } from "../../lib/output.js";

export function renderCalendar(c: { name: string; lastError: string | null; eventCount: number }) {
  if (c.lastError) info(`${c.name}: the last sync failed: ${c.lastError}`);
}
