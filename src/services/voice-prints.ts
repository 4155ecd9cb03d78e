// Recognising a voice across meetings. When the speaker models separate a note's voices,
// each voice's embedding is kept with the note; when someone names a voice, the
// workspace learns that name's voice print (the mean of the voices given it); and a
// later meeting's voice that sounds like a print is offered its name, marked as a
// suggestion until someone confirms it. Only notes every member sees teach prints;
// prints never leave the server, and a member's goes with their membership.
import type { Repositories } from "../db/repos/index.js";
import type { Clock } from "../core/clock.js";
import { newId } from "../core/ids.js";
import { cosine } from "../ai/diarization/diarize.js";
import { notePolicy, type NoteFacts } from "../core/access.js";

/**
 * The cosine similarity of two voices' embeddings above which they are taken for one
 * person. TitaNet's own verification threshold is about 0.7 for clean speech; a
 * suggestion only offers a name, so a miss costs a click.
 */
export const VOICE_MATCH = 0.7;

const unit = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
};

export function createVoicePrints(d: { repos: Repositories; now: Clock }) {
  const { repos } = d;
  return {
    /**
     * A note's voices, just separated: their embeddings are kept, and each voice that
     * sounds like one of the workspace's prints (each print to one voice, the closest
     * pairs first) is offered its name, unless someone named it already.
     */
    async heard(
      note: { id: string; workspaceId: string },
      voices: { label: string; embedding: number[] }[],
    ): Promise<void> {
      await repos.voices.setNoteVoices(note.id, voices);
      const prints = voices.length ? await repos.voices.prints(note.workspaceId) : [];
      const pairs = voices
        .flatMap((v) => prints.map((p) => ({ v, p, similarity: cosine(v.embedding, p.embedding) })))
        .filter((x) => x.similarity >= VOICE_MATCH)
        .sort((a, b) => b.similarity - a.similarity);
      const labels = new Set<string>();
      const used = new Set<string>();
      for (const { v, p } of pairs) {
        if (labels.has(v.label) || used.has(p.id)) continue;
        labels.add(v.label);
        used.add(p.id);
        await repos.speakers.suggest({
          noteId: note.id,
          label: v.label,
          name: p.name,
          email: p.email,
          suggested: true,
          updatedAt: d.now(),
        });
      }
    },

    /**
     * Someone named a voice of a note (or confirmed the name offered): the workspace
     * learns it, where every member sees the note (notePolicy.teach).
     */
    async named(
      note: Omit<NoteFacts, "folderIds"> & { id: string },
      label: string,
      name: string,
      email: string | null,
    ): Promise<void> {
      const { workspaceId, id: noteId } = note;
      const folderIds = ((await repos.notes.foldersOf([noteId])).get(noteId) ?? []).map((f) => f.id);
      const privateFolders = new Set(await repos.folders.privateIds(workspaceId));
      if (!notePolicy.teach({ ...note, folderIds }, privateFolders)) return;
      const embedding = await repos.voices.noteVoice(noteId, label);
      if (!embedding) return;
      const print = await repos.voices.printNamed(workspaceId, name, email);
      const now = d.now();
      await repos.voices.savePrint(
        print
          ? {
              ...print,
              name,
              embedding: unit(print.embedding.map((x, i) => x * print.samples + (embedding[i] ?? 0))),
              samples: print.samples + 1,
              updatedAt: now,
            }
          : {
              id: newId("vp"),
              workspaceId,
              name,
              email,
              embedding: unit(embedding),
              samples: 1,
              createdAt: now,
              updatedAt: now,
            },
      );
    },

    /** Forgets a person's voice (their membership ended). */
    forget: (workspaceId: string, email: string) => repos.voices.removeForEmail(workspaceId, email),
  };
}

export type VoicePrints = ReturnType<typeof createVoicePrints>;
