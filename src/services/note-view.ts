// A note as a page shows it: read once with what this viewer may do with it, the access
// policy's answer, so that the page offers only that.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { Principal } from "../core/principal.js";
import { notePolicy, type Actor } from "../core/access.js";
import type { Access } from "./access.js";
import { presentFullNote } from "./note-presenter.js";
import { audioIdOf } from "./note-audio.js";

export function noteViews(deps: {
  repos: Repositories;
  access: Access;
  visibleRow: (p: Principal | Actor, id: string) => Promise<NoteRow>;
  publicUrl: string;
}) {
  const { repos, access, visibleRow } = deps;
  return {
    /** What a note's page shows, read once: the note, its share settings and whether it has a recording. */
    async view(p: Principal, id: string) {
      const a = await access.actor(p);
      const row = await visibleRow(a, id);
      const facts = await access.noteFacts(row);
      const share = row.visibility === "public" ? await repos.shares.forNote(id) : null;
      return {
        note: await presentFullNote(repos, row, deps.publicUrl),
        share: share ? { includeTranscript: share.includeTranscript, includeRecording: share.includeRecording } : null,
        hasRecording: audioIdOf(row) !== null,
        /** Whether the viewer made the note (its written notes are then theirs). */
        mine: row.createdBy === p.userId,
        /** What this viewer may do with it, for the page to offer only that. */
        may: {
          edit: notePolicy.edit(a, facts),
          widen: notePolicy.widen(a, facts),
          delete: notePolicy.delete(a, facts),
          emailRecap: notePolicy.emailRecap(a, facts),
        },
      };
    },

    /** The note as the caller sees it, with the facts the policy decides on and the caller as an actor. */
    async withFacts(p: Principal, id: string) {
      const actor = await access.actor(p);
      const row = await visibleRow(actor, id);
      return { note: await presentFullNote(repos, row, deps.publicUrl), facts: await access.noteFacts(row), actor };
    },
  };
}
