// A length of time as people read it, the same on the web pages and in the messages
// the pipeline writes on a note: "4 h 2 min", "3 min 20 s", "45 s".
export function formatDuration(totalSec: number): string {
  if (!totalSec) return "—";
  const h = Math.floor(totalSec / 3600);
  const m = Math.floor((totalSec % 3600) / 60);
  const s = Math.floor(totalSec % 60);
  return h ? `${h} h ${m} min` : m ? `${m} min ${s} s` : `${s} s`;
}
