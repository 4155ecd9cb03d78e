// What a person did to a note is never lost unasked: processing again transcribes a
// recording anew (every line of the transcript written again, corrections with them),
// and processing again or enhancing writes the summary and the enhanced note anew. Each
// refuses with 409, saying what would be lost, until the caller says to go ahead.
import { ConflictError } from "../core/errors.js";
import type { NoteRow, StoredSegment } from "../db/stores/note-store.js";

export interface RewriteConsent {
  /** Lines a person corrected may be transcribed anew. */
  discardCorrections?: boolean;
  /** A summary or enhanced note a person edited may be written anew. */
  discardEdits?: boolean;
}

export function requireNothingLost(
  row: Pick<NoteRow, "id" | "textEditedAt">,
  how: { retranscribes: boolean; segments: readonly Pick<StoredSegment, "version">[] },
  consent: RewriteConsent,
): void {
  const lost: string[] = [];
  const ask: string[] = [];
  const corrected = how.retranscribes ? how.segments.filter((s) => s.version > 0).length : 0;
  if (corrected && !consent.discardCorrections) {
    lost.push(`${corrected} line${corrected === 1 ? "" : "s"} of the transcript a person corrected`);
    ask.push("discardCorrections=true");
  }
  if (row.textEditedAt !== null && !consent.discardEdits) {
    lost.push(`the summary and enhanced note as a person edited them (${new Date(row.textEditedAt).toISOString()})`);
    ask.push("discardEdits=true");
  }
  if (lost.length)
    throw new ConflictError(
      `Writing note ${row.id} anew would lose ${lost.join(" and ")}. Ask again with ${ask.join(" and ")} to do it anyway.`,
    );
}
