// A person's notes typed beside a meeting as it is recorded, saved as they type: each
// save names the version of the notes it was typed on, and one made on notes that
// changed since (another tab, another person) is not written; the page is given the
// notes as they are now, to merge its lines in and save again. Nothing is overwritten
// unseen.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import type { Jobs } from "../jobs/job.js";
import { textVersion } from "../shared/text-version.js";
import type { NoteHistory } from "./note-history.js";

export type OwnNotesSave =
  | { saved: true; version: string }
  | {
      saved: false;
      /** The notes as they are now, which the save was not made on. */ current: string;
      version: string;
    };

export function ownNotes(deps: {
  repos: Repositories;
  now: Clock;
  jobs: Pick<Jobs, "enqueue">;
  visibleRow: (p: Principal, id: string) => Promise<NoteRow>;
  history: NoteHistory;
}) {
  const { repos, now, jobs, visibleRow, history } = deps;
  return {
    /** Saves `text` as the note's notes when they are still at `base` (a textVersion). */
    async saveOwnNotes(p: Principal, id: string, text: string, base: string): Promise<OwnNotesSave> {
      return repos.transaction(async () => {
        // Held and read again inside the transaction: of two saves on one version, one is written.
        await repos.notes.holdPart(id, "own-notes");
        const row = await visibleRow(p, id);
        const current = row.userWrittenNote;
        if (textVersion(current) !== base) return { saved: false, current, version: textVersion(current) };
        if (current !== text) {
          await repos.notes.update(p.workspaceId, id, { userWrittenNote: text, updatedAt: now() });
          await history.personWrote(p, row, { userWrittenNote: text });
          await jobs.enqueue("index-passages", { source: "note", id });
        }
        return { saved: true, version: textVersion(text) };
      });
    },
  };
}
