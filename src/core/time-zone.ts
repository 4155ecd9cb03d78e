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
