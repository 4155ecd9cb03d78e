// A note's speakers: the labels of its transcript, with the names people give them.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import { BadRequestError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { Clock } from "../core/clock.js";
import { speakersOf } from "./note-presenter.js";
import { renameOwner } from "../ai/summarization/owners.js";
import type { VoicePrints } from "./voice-prints.js";
import type { Jobs } from "../jobs/job.js";

export interface NoteSpeakerDeps {
  repos: Repositories;
  now: Clock;
  /** The note as the caller may see it, else not found: the note service's one check. */
  visibleRow(p: Principal, id: string): Promise<NoteRow>;
  jobs: Jobs;
  /** Learns a named voice's print. */
  voicePrints: Pick<VoicePrints, "named">;
}

export function noteSpeakers({ repos, now, visibleRow, jobs, voicePrints }: NoteSpeakerDeps) {
  return {
    /** The note's speakers with their names and talk time. */
    async speakers(p: Principal, id: string) {
      const row = await visibleRow(p, id);
      return speakersOf(await repos.notes.segmentsOf(id), await repos.speakers.namesOf(id), row.totalDurationSec);
    },

    /**
     * Names a speaker label: with a name, or with the email of a participant or member
     * (their name is used); a null name gives the label back. Every read of the
     * transcript shows the name from then on, and later summaries use it. Naming a
     * voice the speaker models heard (or confirming the name its print offered)
     * teaches the workspace that voice.
     */
    async renameSpeaker(p: Principal, id: string, body: { label: string; name?: string | null; email?: string }) {
      const row = await visibleRow(p, id);
      const segments = await repos.notes.segmentsOf(id);
      if (!segments.some((s) => s.speaker === body.label)) {
        const labels = [...new Set(segments.map((s) => s.speaker))];
        throw new BadRequestError(
          `label: the transcript has no speaker "${body.label}"${labels.length ? ` (its labels: ${labels.slice(0, 20).join(", ")})` : " (it has no transcript)"}.`,
        );
      }
      let name = body.name ?? null;
      let email: string | null = null;
      if (body.email) {
        const wanted = body.email.toLowerCase();
        const participant = row.participants.find((x) => x.email.toLowerCase() === wanted);
        const member = participant ? null : await repos.members.getByEmail(p.workspaceId, wanted);
        if (!participant && !member)
          throw new BadRequestError(
            `email: ${body.email} is neither a participant of this note nor a member of the workspace.`,
          );
        email = participant?.email || member!.email;
        name ??= participant?.name || member?.name || email;
      }
      const was = (await repos.speakers.namesOf(id)).get(body.label);
      await repos.transaction(async () => {
        if (name === null) await repos.speakers.unname(id, body.label);
        else {
          await repos.speakers.name({ noteId: id, label: body.label, name, email, suggested: false, updatedAt: now() });
          // Learned once per naming: the same name given again teaches nothing new.
          if (!was || was.suggested || was.name !== name || was.email !== email)
            await voicePrints.named(row, body.label, name, email);
        }
        // The summary and the enhanced note name owners as they were called when written:
        // the owner's marks follow this speaker's new name, so the action items and the
        // recap say who it is now.
        const from = was?.name ?? body.label;
        const to = name ?? body.label;
        await repos.notes.update(p.workspaceId, id, {
          updatedAt: now(),
          ...(from !== to
            ? { summary: renameOwner(row.summary, from, to), enhancedNote: renameOwner(row.enhancedNote, from, to) }
            : {}),
        });
        // The items that speaker took on are theirs under the new name too.
        if (from !== to) await repos.actionItems.renameOwner(id, from, to);
        // Passages quote the speaker: the index learns the new name.
        await jobs.enqueue("index-passages", { source: "note", id });
      });
      return speakersOf(segments, await repos.speakers.namesOf(id), row.totalDurationSec);
    },
  };
}
