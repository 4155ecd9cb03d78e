// How the pages write dates, durations and statuses.
import Bowser from "bowser";
import { html } from "hono/html";
import { formatInZone, formatWhen } from "../core/time-zone.js";
import { NOTE_STATUS_LABELS, SETTLED_STATUSES, type NoteStatus } from "../core/note-vocabulary.js";

/** "2026-03-01 10:30 GMT+1": one of the API's ISO 8601 UTC times in the reader's zone. */
export const formatDate: (isoString: string, zone: string) => string = formatInZone;

/**
 * A meeting's time in lists as people say it ("Today 21:22", "Yesterday 09:05", "Mon 30
 * Nov": core/time-zone.ts formatWhen), in the reader's zone, the full time on hover.
 */
export const when = (iso: string, viewer: { timeZone: string; now: number }) =>
  html`<time datetime="${iso}" title="${formatInZone(iso, viewer.timeZone)}">${formatWhen(iso, viewer.timeZone, viewer.now)}</time>`;

export { formatDuration } from "../core/duration.js";

/** A size as people read it: "1.9 MB", "2 GB". */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${i === 0 ? value : Number(value.toFixed(value < 10 ? 1 : 0))} ${units[i]}`;
}

/** MM:SS back to seconds, for the player. */
export function seconds(mmss: string): number {
  const [m, s] = mmss.split(":").map(Number);
  return m * 60 + s;
}

/** Statuses in which nothing is under way: the page stops polling and offers processing again. */
export const FINAL_STATUSES = SETTLED_STATUSES;

/** The status as the page shows it, with the stage's progress where the server knows it ("transcribing 40%"). */
export function statusLabel(note: { status: NoteStatus; progress?: { percent: number | null } | null }): string {
  const label = NOTE_STATUS_LABELS[note.status];
  const percent = note.progress?.percent;
  return percent === null || percent === undefined ? label : `${label} ${percent}%`;
}

export const STATUS_LABELS = NOTE_STATUS_LABELS;

/** "Chrome 139 on Linux" from a browser's User-Agent (bowser reads it); the raw string only when it says nothing known. */
export function describeUserAgent(userAgent: string): string {
  if (!userAgent) return "unknown";
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split(".")[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ""}` : null;
  if (!name) return userAgent.slice(0, 60);
  return os.name ? `${name} on ${os.name}` : name;
}
