// A calendar's sync: an ICS feed of 2,000 events, 200 of them weekly series without
// end, read whole the first time (fetch, expand in the window, write the meetings) and
// then asked again with nothing changed (one request answered 304 by its ETag). The
// goal: the unchanged sync under 0.1 of the first. A changed feed, read whole again, is
// shown beside them.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { api, startServer, stopServer } from "./lib.mjs";

const EVENTS = Number(process.env.BENCH_CALENDAR_EVENTS ?? 2000);
const SERIES = Number(process.env.BENCH_CALENDAR_SERIES ?? 200);
const RUNS = Number(process.env.BENCH_CALENDAR_RUNS ?? 15);
const HOUR = 3_600_000;

const stamp = (ms) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

function feed(version) {
  const now = Date.now();
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notula bench//EN", "X-WR-CALNAME:Bench"];
  for (let i = 0; i < EVENTS; i++) {
    const series = i < SERIES;
    // Singles spread over the kept window (90 days back, 180 ahead); series started a year ago, weekly, no end.
    const start = series ? now - 365 * 24 * HOUR + i * HOUR : now - 80 * 24 * HOUR + i * 3 * HOUR;
    lines.push(
      "BEGIN:VEVENT",
      `UID:bench-${i}@example.com`,
      `DTSTAMP:${stamp(now)}`,
      `SUMMARY:${series ? "Weekly" : "Meeting"} ${i}${version ? ` v${version}` : ""}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(start + HOUR)}`,
      ...(series ? ["RRULE:FREQ=WEEKLY"] : []),
      `ATTENDEE;CN=Person ${i % 7}:mailto:p${i % 7}@acme.example`,
      "ATTENDEE;CN=Ana:mailto:ana@acme.example",
      "LOCATION:https://meet.google.com/abc-defg-hij",
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.join("\r\n");
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchCalendarSync() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-bench-calendar-"));
  let version = 0;
  let body = feed(version);
  const served = { full: 0, notModified: 0 };
  const source = http.createServer((req, res) => {
    const etag = `"v${version}"`;
    if (req.headers["if-none-match"] === etag) {
      served.notModified++;
      res.writeHead(304, { etag });
      return res.end();
    }
    served.full++;
    res.writeHead(200, { "content-type": "text/calendar", etag });
    res.end(body);
  });
  await new Promise((r) => source.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${source.address().port}/bench/basic.ics`;
  const server = await startServer(path.join(dir, "data"), ["--allow-private-calendars"]);
  try {
    const timed = async (fn) => {
      const t = performance.now();
      const out = await fn();
      return { ms: performance.now() - t, out };
    };
    const first = await timed(() => api(server, "POST", "/v1/calendars", { kind: "ics", url }));
    const cal = first.out.calendar;
    if (cal.lastError) throw new Error(cal.lastError);
    const unchanged = [];
    for (let i = 0; i < RUNS; i++)
      unchanged.push((await timed(() => api(server, "POST", `/v1/calendars/${cal.id}/sync`))).ms);
    const changed = [];
    for (let i = 1; i <= 3; i++) {
      version = i;
      body = feed(i);
      changed.push((await timed(() => api(server, "POST", `/v1/calendars/${cal.id}/sync`))).ms);
    }
    const still = median(unchanged);
    console.log(`\ncalendar sync, an ICS feed of ${EVENTS} events (${SERIES} weekly series without end)`);
    console.log(
      `meetings kept in the window: ${cal.eventCount}; feed ${(Buffer.byteLength(body) / 1024).toFixed(0)} kB`,
    );
    console.log(`first sync (read, expand, write)     ${first.ms.toFixed(0).padStart(6)} ms`);
    console.log(
      `nothing changed (304), median of ${RUNS}  ${still.toFixed(1).padStart(6)} ms   ratio to the first ${(still / first.ms).toFixed(3)}`,
    );
    console.log(`changed feed, read whole, median of 3 ${median(changed).toFixed(0).padStart(6)} ms`);
    console.log(`requests the feed served: ${served.full} whole, ${served.notModified} not modified`);
    console.log(`goal: an unchanged sync under 0.1 of the first: ${still / first.ms < 0.1 ? "met" : "not met"}`);
  } finally {
    await stopServer(server.proc);
    source.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
