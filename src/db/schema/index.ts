// The SQLite schema, one file per area. Times are integer milliseconds since the
// epoch (rendered as ISO 8601 at the edge); JSON columns hold small nested values
// that are only ever read whole. Indexes are named for the list query each one serves.
export * from "./accounts.js";
export * from "./directory.js";
export * from "./notes.js";
export * from "./integrations.js";
export * from "./processing.js";
export * from "./oauth.js";
export * from "./sessions.js";
export * from "./templates.js";
export * from "./calendars.js";
export * from "./ask.js";
export * from "./voices.js";
