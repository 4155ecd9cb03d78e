// How the pages write dates, durations and statuses.
/** "2026-03-01 09:30 UTC" from the API's ISO 8601 UTC times (which always end in Z). */
export function formatDate(isoString: string): string {
  const utc = isoString.endsWith("Z") ? isoString : new Date(isoString).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`;
}

export function formatDuration(totalSec: number): string {
  if (!totalSec) return "—";
  const h = Math.floor(totalSec / 3600);
  const m = Math.floor((totalSec % 3600) / 60);
  const s = Math.floor(totalSec % 60);
  return h ? `${h} h ${m} min` : m ? `${m} min ${s} s` : `${s} s`;
}

/** MM:SS back to seconds, for the player. */
export function seconds(mmss: string): number {
  const [m, s] = mmss.split(":").map(Number);
  return m * 60 + s;
}

export const FINAL_STATUSES = new Set(["completed", "recorded-not-summarized", "idle", "recording"]);

export const STATUS_LABELS: Record<string, string> = {
  idle: "idle",
  recording: "recording",
  postprocessing: "queued",
  "transcript-processing": "transcribing",
  summarizing: "summarizing",
  completed: "completed",
  "recorded-not-summarized": "not summarized",
};
