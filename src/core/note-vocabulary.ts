// A note's status, kind and visibility: the values, their types and how people read
// them, defined once. The database columns, the zod schemas, the life cycle, the
// access policy, the web app and the CLI all take them from here (src/shared/vocabulary.ts
// passes them on to what stands above core).

export const NOTE_STATUSES = [
  "idle",
  "recording",
  "transcript-processing",
  "recorded-not-summarized",
  "summarizing",
  "completed",
  "postprocessing",
] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

export const NOTE_KINDS = ["online", "in-person", "podcast"] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/** Visibility as notes are stored and returned (the newer shape). */
export const VISIBILITIES = ["only-me", "workspace", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Each status as a person reads it (the web app's badges and filters). */
export const NOTE_STATUS_LABELS: Record<NoteStatus, string> = {
  idle: "idle",
  recording: "recording",
  postprocessing: "queued",
  "transcript-processing": "transcribing",
  summarizing: "summarizing",
  completed: "completed",
  "recorded-not-summarized": "not summarized",
};

/** Statuses whose processing is under way (a job runs or waits for the note). */
export const IN_FLIGHT_STATUSES: ReadonlySet<NoteStatus> = new Set([
  "postprocessing",
  "transcript-processing",
  "summarizing",
]);

/** Statuses a note rests in: nothing more happens to it unless someone asks. */
export const SETTLED_STATUSES: ReadonlySet<NoteStatus> = new Set([
  "completed",
  "recorded-not-summarized",
  "idle",
  "recording",
]);

export const isNoteStatus = (v: unknown): v is NoteStatus => (NOTE_STATUSES as readonly unknown[]).includes(v);
export const isVisibility = (v: unknown): v is Visibility => (VISIBILITIES as readonly unknown[]).includes(v);
