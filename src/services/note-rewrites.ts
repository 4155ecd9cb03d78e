// What a person did to a note is never lost unasked: processing again transcribes a
// recording anew (every line of the transcript written again, corrections with them),
// and processing again or enhancing writes the summary and the enhanced note anew. Each
// refuses with 409, saying what would be lost, until the caller says to go ahead.
// Both are here: processing again and enhancing, each asking first.
import { BadRequestError, ConflictError } from "../core/errors.js";
import type { NoteRow, StoredSegment } from "../db/stores/note-store.js";
import type { Repositories } from "../db/repos/index.js";
import type { Principal } from "../core/principal.js";
import type { NoteDto } from "../shared/schemas/notes.js";
import type { NoteLifecycle } from "./note-lifecycle.js";
import type { TemplateService } from "./templates.js";
import { audioIdOf } from "./note-audio.js";

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

/** Processing a note again and enhancing it: what writes it anew, after asking. */
export function noteRewrites(d: {
  repos: Repositories;
  lifecycle: NoteLifecycle;
  templates: Pick<TemplateService, "require" | "forNote">;
  /** The note as the caller may see (and so edit) it, else not found: the note service's one check. */
  visibleRow(p: Principal, id: string): Promise<NoteRow>;
  get(p: Principal, id: string): Promise<NoteDto>;
}) {
  const { repos, lifecycle } = d;
  return {
    /** Runs the processing again: from the recording if there is one, else from the transcript. */
    async reprocess(p: Principal, id: string, consent: RewriteConsent = {}): Promise<NoteDto> {
      const row = await d.visibleRow(p, id);
      const segments = await repos.notes.segmentsOf(id);
      if (!audioIdOf(row) && segments.length === 0)
        throw new BadRequestError(`Note ${id} has neither a recording nor a transcript to process.`);
      requireNothingLost(row, { retranscribes: audioIdOf(row) !== null, segments }, consent);
      await lifecycle.reprocess(row);
      return d.get(p, id);
    },

    /** Writes the enhanced note again with a template (the note's default unless given), in the background. */
    async enhance(p: Principal, id: string, templateId: string | undefined, consent: RewriteConsent = {}) {
      const row = await d.visibleRow(p, id);
      requireNothingLost(row, { retranscribes: false, segments: [] }, consent);
      const template = templateId
        ? await d.templates.require(p.workspaceId, templateId, "templateId")
        : await d.templates.forNote(p.workspaceId, id);
      if (!row.userWrittenNote.trim() && (await repos.notes.segmentsOf(id)).length === 0)
        throw new BadRequestError(`Note ${id} has neither a transcript nor notes of its own to enhance.`);
      await lifecycle.enhance(row, template.id);
      return d.get(p, id);
    },
  };
}
