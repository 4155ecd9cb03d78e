// Rows and vectors the repository tests insert, made one way.
import type { NewNote } from "../../src/db/stores/note-store.js";

/** A workspace row as the repositories take it. */
export const workspaceRow = (id: string, createdAt = 1) => ({
  id,
  name: id,
  plan: "pro" as const,
  settings: {},
  allowedEmailDomains: [],
  iconUrl: null,
  createdAt,
  updatedAt: createdAt,
});

/** The API key "kh" of usr_1 in ws_1 (scope notes), as the repositories take it. */
export const apiKeyRow = () => ({
  id: "key_1",
  workspaceId: "ws_1",
  userId: "usr_1",
  name: "k",
  displayPrefix: "ntl_ab",
  keyHash: "kh",
  scopes: ["notes" as const],
  createdAt: 1,
  lastUsedAt: null,
  revokedAt: null,
});

/** A unit vector of 8 dimensions pointing mostly along axis `i`, leaning `tilt` towards the next. */
export const axisVector = (i: number, tilt = 0) => {
  const x = new Float32Array(8).fill(0.01);
  x[i] = 1;
  x[(i + 1) % 8] = tilt;
  const n = Math.hypot(...x);
  return x.map((c) => c / n);
};

/** A note as the note store inserts it: a completed workspace note of ws_1 by usr_ana, unless `over` says otherwise. */
export function noteRow(
  id: string,
  over: Partial<NewNote["row"]> = {},
  extra: Partial<Omit<NewNote, "row">> = {},
): NewNote {
  return {
    row: {
      id,
      workspaceId: "ws_1",
      createdBy: "usr_ana",
      title: `Title of ${id}`,
      kind: "online",
      status: "completed",
      visibility: "workspace",
      userWrittenNote: "",
      enhancedNote: "",
      summary: "",
      totalDurationSec: 60,
      participants: [],
      calendarEvent: null,
      inputLanguage: null,
      translationLanguage: null,
      meetingApp: null,
      processingError: null,
      uploadId: null,
      recordingId: null,
      processingInfo: null,
      createdAt: 1,
      updatedAt: 1,
      ...over,
    },
    segments: extra.segments ?? [],
    folderIds: extra.folderIds ?? [],
  };
}
