// Wall-clock times in a named time zone, turned into instants with the zone rules the
// runtime ships (Intl, from ICU's copy of the IANA database): a weekly meeting at 10:00
// in Berlin stays at 10:00 in Berlin across a change of daylight saving time.

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(zone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(zone)) {
    let f: Intl.DateTimeFormat | null = null;
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      f = null; // not a zone the runtime knows (a Windows name, a custom id)
    }
    formatters.set(zone, f);
  }
  return formatters.get(zone)!;
}

/** Whether the runtime knows this zone by name. */
export const isKnownZone = (zone: string) => formatter(zone) !== null;

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, f: Intl.DateTimeFormat): number {
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

export interface WallTime {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The instant a wall-clock time names in `zone`. A time skipped by a change of clocks
 * lands after it (02:30 on a spring-forward night is 03:30), as calendar programs do.
 */
export function zonedToUtc(t: WallTime, zone: string): number {
  const f = formatter(zone);
  const naive = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  if (!f) return naive;
  const first = naive - offsetAt(naive, f);
  const second = naive - offsetAt(first, f);
  return second === first ? first : Math.max(first, second);
}
