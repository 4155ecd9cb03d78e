// A note's share link follows its visibility: a public note has one; any other has
// none, so a link dies with publicity.
import { randomBytes } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { Principal } from "../core/principal.js";
import type { NoteDto } from "../shared/schemas/notes.js";
import { notePolicy, type Actor } from "../core/access.js";
import { BadRequestError } from "../core/errors.js";
import type { Access } from "./access.js";
import { presentFullNote } from "./note-presenter.js";
import { noteAudio } from "./note-audio.js";
import { audioKey } from "../storage/audio-key.js";

/** A shared note's recording, where the audio store keeps it. */
export interface SharedAudio {
  key: string;
  contentType: string;
}

export async function syncShare(
  repos: Repositories,
  now: Clock,
  noteId: string,
  visibility: NoteRow["visibility"],
): Promise<void> {
  if (visibility === "public")
    await repos.shares.insert({
      noteId,
      token: randomBytes(16).toString("base64url"),
      includeTranscript: true,
      includeRecording: false,
      createdAt: now(),
    });
  else await repos.shares.remove(noteId);
}

/** What a note's share link shows, and the note as its holder sees it. */
export function noteShareLinks(d: {
  repos: Repositories;
  access: Access;
  /** The note as the caller may see it, else not found: the note service's one check. */
  visibleRow(p: Principal | Actor, id: string): Promise<NoteRow>;
  publicUrl: string;
}) {
  const { repos, access } = d;
  async function sharedRow(token: string) {
    const share = /^[A-Za-z0-9_-]{22}$/.test(token) ? await repos.shares.byToken(token) : null;
    const row = share ? await repos.notes.getForProcessing(share.noteId) : null;
    return share && row && notePolicy.seeByLink(row) ? { share, row } : null;
  }
  async function audioOf(row: NoteRow): Promise<SharedAudio | null> {
    const audio = await noteAudio(repos, row);
    return audio ? { key: audioKey(audio), contentType: audio.contentType } : null;
  }
  return {
    /** Whether the public page of a shared note shows its transcript, and plays its recording. */
    async setShareShows(p: Principal, id: string, shows: { transcript: boolean; recording: boolean }): Promise<void> {
      const a = await access.actor(p);
      const row = await d.visibleRow(a, id);
      access.require(
        notePolicy.widen(a, await access.noteFacts(row)),
        "Only the note's creator or an admin can change what its share link shows.",
      );
      if (!(await repos.shares.forNote(id))) throw new BadRequestError("Only a public note has a share link.");
      await repos.shares.setTranscript(id, shows.transcript);
      await repos.shares.setRecording(id, shows.recording);
    },

    /** A shared note as anyone with the link sees it, or null when the link is not (or no longer) valid. */
    async shared(
      token: string,
    ): Promise<{ note: NoteDto; includeTranscript: boolean; recording: SharedAudio | null } | null> {
      const found = await sharedRow(token);
      if (!found) return null;
      const { share, row } = found;
      return {
        note: await presentFullNote(repos, row, d.publicUrl),
        includeTranscript: share.includeTranscript,
        recording: share.includeRecording ? await audioOf(row) : null,
      };
    },

    /** The recording a share link plays, or null: none, not shared with it, or the link dead. */
    async sharedRecording(token: string): Promise<SharedAudio | null> {
      const found = await sharedRow(token);
      return found?.share.includeRecording ? audioOf(found.row) : null;
    },
  };
}
