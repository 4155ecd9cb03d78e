// Times as a person reads them: in their own zone. The API speaks ISO 8601 UTC; the web
// app writes each time in the reader's zone (the browser's, taken at sign-in, or the
// one chosen in Settings → Account), and the CLI in the terminal's.

/** The zone's canonical IANA name, or null when it is not one this runtime knows. */
export function canonicalZone(zone: string): string | null {
  if (!zone || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Every zone a person may choose, UTC first. */
export const zoneChoices = (): string[] => ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(zone: string) {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formats.set(zone, f);
  }
  return f;
}

/** "2026-11-28 01:24 GMT+1": the date and time in `zone`, the zone named after it. */
export function formatInZone(at: string | number | Date, zone = "UTC"): string {
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  const part = Object.fromEntries(
    formatIn(canonicalZone(zone) ?? "UTC")
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute} ${part.timeZoneName}`;
}

/** "2026-11-28": the calendar day in `zone`. */
export function dayInZone(at: string | number | Date, zone = "UTC"): string {
  return formatInZone(at, zone).slice(0, 10);
}

/** The zone this process runs in (a terminal's), UTC when it names none. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A meeting's time as people say it, in the reader's zone against `now`: "Today 21:22",
 * "Yesterday 09:05", "Tomorrow 10:00", "Mon 30 Nov 14:00" within the week around today,
 * "Mon 30 Nov" earlier in the year, "30 Nov 2025" before it. One style for every list.
 */
export function formatWhen(at: string | number | Date, zone: string, now: number): string {
  const full = formatInZone(at, zone);
  const day = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})/.exec(full);
  const today = /^(\d{4})-(\d{2})-(\d{2})/.exec(formatInZone(now, zone));
  if (!day || !today) return full;
  const [, y, m, d, time] = day;
  const days = Math.round(
    (Date.UTC(Number(y), Number(m) - 1, Number(d)) -
      Date.UTC(Number(today[1]), Number(today[2]) - 1, Number(today[3]))) /
      86_400_000,
  );
  if (days === 0) return `Today ${time}`;
  if (days === -1) return `Yesterday ${time}`;
  if (days === 1) return `Tomorrow ${time}`;
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(y), Number(m) - 1, Number(d))).getUTCDay()];
  const date = `${Number(d)} ${MONTHS[Number(m) - 1]}`;
  if (Math.abs(days) < 7) return `${weekday} ${date} ${time}`;
  return y === today[1] ? `${weekday} ${date}` : `${date} ${y}`;
}
