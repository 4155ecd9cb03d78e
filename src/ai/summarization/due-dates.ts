// When a task is due, from the words it was given with ("by Wednesday", "tomorrow",
// "by the end of the month"), as a calendar date resolved against the day of the
// meeting. Days are UTC days, weeks start on Monday. A weekday named without "next"
// is its next one after the meeting's day ("by Friday", said on a Friday, is a week
// later); "next Friday" is the Friday of the week after the meeting's.

const DAY = 86_400_000;
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
  "thirteenth",
  "fourteenth",
  "fifteenth",
  "sixteenth",
  "seventeenth",
  "eighteenth",
  "nineteenth",
  "twentieth",
];
const COUNTS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, ten: 10 };

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;
/** Monday 0 … Sunday 6. */
const weekday = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7;

/** A day of the month said as a number or an ordinal ("3rd", "the twenty-first"). */
function dayNumber(word: string): number | null {
  const n = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
  if (n) return Number(n[1]);
  const parts = word.split("-");
  if (parts.length === 2 && parts[0] === "twenty") {
    const k = ORDINALS.indexOf(parts[1]);
    return k >= 0 && k < 9 ? 21 + k : null;
  }
  if (word === "thirtieth") return 30;
  if (word === "thirty-first") return 31;
  const k = ORDINALS.indexOf(word);
  return k >= 0 ? k + 1 : null;
}

/** The date a day of a month falls on, the first one on or after the meeting's day. */
function onOrAfter(meeting: number, month: number, day: number): string | null {
  const year = new Date(meeting).getUTCFullYear();
  for (const y of [year, year + 1]) {
    const at = Date.UTC(y, month, day);
    if (new Date(at).getUTCDate() !== day) return null; // the 31st of a 30-day month
    if (at >= startOfDay(meeting)) return iso(at);
  }
  return null;
}

/** The due date a sentence gives its task (YYYY-MM-DD), or null when it gives none. */
export function dueDateOf(sentence: string, meetingAt: number): string | null {
  const s = sentence.toLowerCase();
  const today = startOfDay(meetingAt);
  const friday = (ms: number) => ms + (4 - weekday(ms)) * DAY;
  const monday = (ms: number) => ms - weekday(ms) * DAY;
  if (/\b(today|tonight|end of (the )?day|eod)\b/.test(s)) return iso(today);
  if (/\btomorrow\b/.test(s)) return iso(today + DAY);
  const named = new RegExp(`\\b(next\\s+)?(${WEEKDAYS.join("|")})\\b`).exec(s);
  if (named) {
    const want = WEEKDAYS.indexOf(named[2]);
    if (named[1]) return iso(monday(today) + 7 * DAY + want * DAY);
    const ahead = (want - weekday(today) + 7) % 7 || 7;
    return iso(today + ahead * DAY);
  }
  const dayMonth = new RegExp(`\\b(?:the\\s+)?([\\w-]+)\\s+(?:of\\s+)?(${MONTHS.join("|")})\\b`).exec(s);
  const monthThenDay = new RegExp(`\\b(${MONTHS.join("|")})\\s+(?:the\\s+)?([\\w-]+)\\b`).exec(s);
  for (const [dayWord, monthWord] of [
    [dayMonth?.[1], dayMonth?.[2]],
    [monthThenDay?.[2], monthThenDay?.[1]],
  ]) {
    const day = dayWord ? dayNumber(dayWord) : null;
    if (!day || day > 31 || !monthWord) continue;
    const at = onOrAfter(meetingAt, MONTHS.indexOf(monthWord), day);
    if (at) return at;
  }
  if (/\b(end of (the |this )?week|this week)\b/.test(s)) return iso(Math.max(today, friday(today)));
  if (/\bby next week\b/.test(s)) return iso(monday(today) + 7 * DAY);
  if (/\bnext week\b/.test(s)) return iso(friday(today) + 7 * DAY);
  if (/\b(end of (the |this )?month|this month)\b/.test(s)) {
    const d = new Date(today);
    return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  }
  const within = /\bin\s+(\d+|a|one|two|three|four|five|six|ten)\s+(days?|weeks?)\b/.exec(s);
  if (within) {
    const n = COUNTS[within[1]] ?? Number(within[1]);
    return iso(today + n * (within[2].startsWith("week") ? 7 : 1) * DAY);
  }
  return null;
}
