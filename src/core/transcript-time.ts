// A transcript's MM:SS positions, as the interface writes them (minutes not capped at 59).

/** Seconds to MM:SS. */
export function toTimestamp(totalSec: number): string {
  const s = Math.max(0, Math.floor(totalSec));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/** MM:SS to seconds. */
export function fromTimestamp(mmss: string): number {
  const [m, s] = mmss.split(":").map(Number);
  return m * 60 + s;
}
