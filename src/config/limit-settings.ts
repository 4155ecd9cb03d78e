// The limits of the service, in the settings table with the rest: how much is taken at
// once, how long things may take, and the bounds of calendar syncing. A limit counted in
// the counter store (questions answered at once) holds across replicas; one of a
// process's own resources (uploads received at once) is each replica's.
import { z } from "zod";
import { group, setting } from "./setting.js";

export const limitSettings = group({
  maxConcurrentUploads: setting(z.number().int().positive().default(16), {
    env: ["NOTULA_MAX_CONCURRENT_UPLOADS"],
    doc: "Audio uploads received at once by each replica (its own sockets and disk); one more gets 503 with Retry-After.",
  }),
  uploadIdleTimeoutMs: setting(z.number().int().min(100).default(60_000), {
    env: ["NOTULA_UPLOAD_IDLE_TIMEOUT_MS"],
    doc: "An upload that sends nothing for this long is cut (and may be sent again).",
  }),
  requestTimeoutMs: setting(z.number().int().min(100).default(60_000), {
    env: ["NOTULA_REQUEST_TIMEOUT_MS"],
    doc: "An API request (/v1) not answered in this time gets 504; uploads are bounded by their idle timeout instead.",
  }),
  recordingQuietSec: setting(z.number().int().min(5).max(3600).default(120), {
    env: ["NOTULA_RECORDING_QUIET_SEC"],
    doc: "A live recording that gets no piece for this long is stopped by the server, with what it received.",
  }),
  mcpSessionsPerKey: setting(z.number().int().min(1).max(100_000).default(100), {
    env: ["NOTULA_MCP_SESSIONS_PER_KEY"],
    doc: "MCP sessions one credential keeps open on each replica; opening one more ends its least recently used. One key is often shared by a team's assistants and scripts, each keeping a session.",
  }),
  mcpSessionsPerServer: setting(z.number().int().min(1).max(1_000_000).default(2_000), {
    env: ["NOTULA_MCP_SESSIONS_PER_SERVER"],
    doc: "MCP sessions each replica keeps open in all (a few tens of kB of memory each); past it, the least recently used end.",
  }),
  askPerPerson: setting(z.number().int().min(1).max(100).default(2), {
    env: ["NOTULA_ASK_PER_PERSON"],
    doc: "Questions one person may have answered at once, across every replica; one more gets 429 (a model is slow and shared).",
  }),
  askPerWorkspace: setting(z.number().int().min(1).max(1000).default(8), {
    env: ["NOTULA_ASK_PER_WORKSPACE"],
    doc: "Questions a workspace may have answered at once, across every replica; one more gets 429.",
  }),
});

export const calendarSettings = group({
  syncEverySec: setting(z.number().int().min(30).max(86_400).default(300), {
    env: ["NOTULA_CALENDAR_SYNC_EVERY_SEC"],
    doc: "How often each connected calendar is read again.",
  }),
  pastDays: setting(z.number().int().min(1).max(3650).default(90), {
    env: ["NOTULA_CALENDAR_PAST_DAYS"],
    doc: "Meetings kept from this many days ago (notes made of past meetings find them).",
  }),
  aheadDays: setting(z.number().int().min(1).max(3650).default(180), {
    env: ["NOTULA_CALENDAR_AHEAD_DAYS"],
    doc: "Meetings kept up to this many days ahead.",
  }),
  perPerson: setting(z.number().int().min(1).max(1000).default(20), {
    env: ["NOTULA_CALENDARS_PER_PERSON"],
    doc: "Calendars one person may connect.",
  }),
  maxFeedBytes: setting(
    z
      .number()
      .int()
      .min(1024)
      .default(20 * 1024 * 1024),
    {
      env: ["NOTULA_CALENDAR_MAX_BYTES"],
      doc: "The largest calendar read; a larger one is refused with a message on the calendar.",
    },
  ),
  timeoutSec: setting(z.number().int().min(1).max(600).default(30), {
    env: ["NOTULA_CALENDAR_TIMEOUT_SEC"],
    doc: "Each request to a calendar server is given up after this long.",
  }),
});
