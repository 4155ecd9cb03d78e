// Reading a calendar from where it lives: a secret ICS address (asked with its last
// ETag, so an unchanged feed costs one 304), or a CalDAV server (asked for its
// collections' ctags first, so an unchanged calendar costs one PROPFIND). Every
// request goes through the address policy's agent, with a time limit and a size bound.
import { createDAVClient, type DAVCalendar } from "tsdav";
import type { Outbound } from "../net/outbound.js";

export class CalendarSourceError extends Error {}

/** The bounds of reading one calendar: the settings table's calendars.maxFeedBytes and calendars.timeoutSec. */
export interface SourceLimits {
  maxFeedBytes: number;
  timeoutSec: number;
}

export type SourceResult =
  { unchanged: true } | { unchanged: false; documents: string[]; state: Record<string, string>; name: string | null };

export interface SourceInput {
  kind: "ics" | "caldav";
  url: string;
  username?: string | null;
  password?: string | null;
  /** What the last successful sync stored; empty for the first. */
  state: Record<string, string>;
  outbound: Outbound;
  limits: SourceLimits;
}

/** webcal:// is how calendar apps write an ICS address served over https. */
export const normalizeCalendarUrl = (raw: string) => raw.trim().replace(/^webcals?:\/\//i, "https://");

const describe = (err: unknown, limits: SourceLimits): string => {
  const e = err as { name?: string; message?: string; cause?: { message?: string; code?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError")
    return `the calendar server did not answer within ${limits.timeoutSec} s`;
  return e.cause?.message ?? e.message ?? String(err);
};

const tooLarge = (limits: SourceLimits) =>
  new CalendarSourceError(
    `The calendar is larger than ${Math.round(limits.maxFeedBytes / 1024 / 1024)} MB; notula reads calendars up to that size.`,
  );

async function readBounded(body: ReadableStream<Uint8Array> | null, limits: SourceLimits): Promise<string> {
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limits.maxFeedBytes) throw tooLarge(limits);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readIcs(input: SourceInput): Promise<SourceResult> {
  const headers: Record<string, string> = { accept: "text/calendar, */*;q=0.5" };
  if (input.state.etag) headers["if-none-match"] = input.state.etag;
  if (input.state.lastModified) headers["if-modified-since"] = input.state.lastModified;
  let res;
  try {
    res = await input.outbound.fetch(input.url, {
      headers,
      signal: AbortSignal.timeout(input.limits.timeoutSec * 1000),
    });
  } catch (err) {
    throw new CalendarSourceError(`Could not read the calendar: ${describe(err, input.limits)}.`);
  }
  if (res.status === 304) return { unchanged: true };
  if (res.status === 401 || res.status === 403)
    throw new CalendarSourceError(`The calendar's address was refused (${res.status}); copy its secret address again.`);
  if (res.status === 404) throw new CalendarSourceError("The calendar's address was not found (404).");
  if (!res.ok) throw new CalendarSourceError(`The calendar server answered ${res.status}.`);
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > input.limits.maxFeedBytes) {
    await res.body?.cancel();
    throw tooLarge(input.limits);
  }
  const text = await readBounded(res.body as ReadableStream<Uint8Array> | null, input.limits);
  const state: Record<string, string> = {};
  const etag = res.headers.get("etag");
  const lastModified = res.headers.get("last-modified");
  if (etag) state.etag = etag;
  if (lastModified) state.lastModified = lastModified;
  const name = /^X-WR-CALNAME:(.+)$/im.exec(text)?.[1]?.trim() ?? null;
  return { unchanged: false, documents: [text], state, name };
}

const sameCollection = (a: string, b: string) => {
  const norm = (u: string) => {
    try {
      return new URL(u).toString().replace(/\/+$/, "");
    } catch {
      return u.replace(/\/+$/, "");
    }
  };
  return norm(a) === norm(b);
};

async function readCaldav(input: SourceInput): Promise<SourceResult> {
  // tsdav takes a fetch of the global type; undici's is the same function under its own types.
  const fetchThrough = ((url: string, init?: object) =>
    input.outbound.fetch(url, {
      ...init,
      signal: AbortSignal.timeout(input.limits.timeoutSec * 1000),
    })) as unknown as typeof globalThis.fetch;
  let calendars: DAVCalendar[];
  let client: Awaited<ReturnType<typeof createDAVClient>>;
  try {
    client = await createDAVClient({
      serverUrl: input.url,
      credentials: { username: input.username ?? "", password: input.password ?? "" },
      authMethod: "Basic",
      defaultAccountType: "caldav",
      fetch: fetchThrough,
    });
    calendars = await client.fetchCalendars();
  } catch (err) {
    const message = describe(err, input.limits);
    if (/401|unauthori[sz]ed|invalid credentials/i.test(message))
      throw new CalendarSourceError("The CalDAV server refused the user name or password.");
    throw new CalendarSourceError(`Could not reach the CalDAV calendar: ${message}.`);
  }
  const withEvents = calendars.filter((c) => !c.components || c.components.includes("VEVENT"));
  const chosen = withEvents.filter((c) => sameCollection(c.url, input.url));
  const wanted = chosen.length ? chosen : withEvents;
  if (!wanted.length) throw new CalendarSourceError("The CalDAV account holds no calendar of events.");
  const state = Object.fromEntries(wanted.map((c) => [c.url, String(c.ctag ?? c.syncToken ?? "")]));
  const known = Object.keys(input.state);
  const unchanged =
    known.length === wanted.length && wanted.every((c) => state[c.url] && input.state[c.url] === state[c.url]);
  if (unchanged) return { unchanged: true };
  const documents: string[] = [];
  try {
    for (const calendar of wanted)
      for (const object of await client.fetchCalendarObjects({ calendar }))
        if (typeof object.data === "string") documents.push(object.data);
  } catch (err) {
    throw new CalendarSourceError(`Could not read the CalDAV calendar: ${describe(err, input.limits)}.`);
  }
  const first = wanted[0].displayName;
  const name = wanted.length === 1 && typeof first === "string" ? first : null;
  return { unchanged: false, documents, state, name };
}

/** The calendar's documents, or `unchanged` when the source says nothing changed since `state`. */
export function readCalendar(input: SourceInput): Promise<SourceResult> {
  return input.kind === "ics" ? readIcs(input) : readCaldav(input);
}
