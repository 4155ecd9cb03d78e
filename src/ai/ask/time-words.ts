// Questions about time become date filters: "last week", "in yesterday's stand-up",
// "since 2026-03-01", "since the offsite". Days are UTC days, weeks start on Monday.
// What is left of the question is what is searched for.
const DAY = 86_400_000;

export interface TimeWindow {
  fromDate?: number;
  toDate?: number;
  /** How the window reads in the answer: "last week (2026-11-16 to 2026-11-22)". */
  said: string;
}

export interface TimeReading {
  /** The question without its time words. */
  rest: string;
  window: TimeWindow | null;
  /** "since the offsite": the window starts at the latest meeting of this name (the service looks it up). */
  sinceMeeting: string | null;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;
const span = (label: string, from: number, to: number): TimeWindow => ({
  fromDate: from,
  toDate: to,
  said: to - from <= DAY ? `${label} (${day(from)})` : `${label} (${day(from)} to ${day(to - 1)})`,
});

function monday(ms: number): number {
  const d = startOfDay(ms);
  const weekday = (new Date(d).getUTCDay() + 6) % 7; // Monday 0
  return d - weekday * DAY;
}

function monthStart(ms: number, back = 0): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1);
}

interface Rule {
  re: RegExp;
  window(m: RegExpMatchArray, now: number): TimeWindow | null;
}

const RULES: Rule[] = [
  {
    re: /\b(?:in |from |during )?(?:the )?(?:last|past) (\d{1,3}) days\b/i,
    window: (m, now) =>
      span(`the last ${m[1]} days`, startOfDay(now) - (Number(m[1]) - 1) * DAY, startOfDay(now) + DAY),
  },
  {
    re: /\b(?:in |from |during )?today(?:'s)?\b/i,
    window: (_m, now) => span("today", startOfDay(now), startOfDay(now) + DAY),
  },
  {
    re: /\b(?:in |from |during )?yesterday(?:'s)?\b/i,
    window: (_m, now) => span("yesterday", startOfDay(now) - DAY, startOfDay(now)),
  },
  {
    re: /\b(?:in |from |during )?this week(?:'s)?\b/i,
    window: (_m, now) => span("this week", monday(now), monday(now) + 7 * DAY),
  },
  {
    re: /\b(?:in |from |during )?last week(?:'s)?\b/i,
    window: (_m, now) => span("last week", monday(now) - 7 * DAY, monday(now)),
  },
  {
    re: /\b(?:in |from |during )?this month(?:'s)?\b/i,
    window: (_m, now) => span("this month", monthStart(now), monthStart(now, -1)),
  },
  {
    re: /\b(?:in |from |during )?last month(?:'s)?\b/i,
    window: (_m, now) => span("last month", monthStart(now, 1), monthStart(now)),
  },
  {
    re: /\bsince (\d{4}-\d{2}-\d{2})\b/i,
    window: (m) => {
      const from = Date.parse(`${m[1]}T00:00:00Z`);
      return Number.isNaN(from) ? null : { fromDate: from, said: `since ${m[1]}` };
    },
  },
  {
    re: /\bon (\d{4}-\d{2}-\d{2})\b/i,
    window: (m) => {
      const from = Date.parse(`${m[1]}T00:00:00Z`);
      return Number.isNaN(from) ? null : span(`on ${m[1]}`, from, from + DAY);
    },
  },
];

/** The question's time words read against `now`: at most one window (the first that matches). */
export function readTime(question: string, now: number): TimeReading {
  for (const rule of RULES) {
    const m = question.match(rule.re);
    if (!m) continue;
    const window = rule.window(m, now);
    if (window) return { rest: tidy(question.replace(m[0], " ")), window, sinceMeeting: null };
  }
  const since = /\bsince (?:the |our |my )?([\p{L}\p{N}][\p{L}\p{N}' -]{1,60}?)(?=[?.!,;]|$)/iu.exec(question);
  if (since) return { rest: tidy(question.replace(since[0], " ")), window: null, sinceMeeting: since[1].trim() };
  return { rest: question, window: null, sinceMeeting: null };
}

const tidy = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/\s+([?.!,;])/g, "$1")
    .trim();
