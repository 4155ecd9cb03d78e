export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Seconds to the transcript's MM:SS (minutes not capped at 59). */
export function toTimestamp(totalSec: number): string {
  const s = Math.max(0, Math.floor(totalSec));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export function fromTimestamp(mmss: string): number {
  const [m, s] = mmss.split(":").map(Number);
  return m * 60 + s;
}
