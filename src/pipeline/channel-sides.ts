// Who the two sides of a two-channel recording are: the person recording by their name,
// the others by the one other person the meeting had, else "Others". Attributing the
// segments is the channels' work (ai/channels.ts); a failure there leaves the
// transcript as the engine gave it rather than failing the note.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import { attributeByChannel, decodeLevels, type LevelMeter } from "../ai/channels.js";
import type { TimedWord } from "../ai/transcription/engine.js";

export const hasSides = (note: Pick<NoteRow, "processingInfo">) => note.processingInfo?.channels === "me,others";

export async function sideNames(repos: Repositories, note: NoteRow): Promise<{ meName: string; othersName: string }> {
  const me = await repos.users.get(note.createdBy);
  const meName = me?.name.trim() || me?.email.split("@")[0] || "Me";
  const mine = me?.email.toLowerCase() ?? "";
  const others = note.participants.filter((p) => !(p.email && p.email.toLowerCase() === mine) && p.name !== meName);
  const one = others.length === 1 ? others[0].name.trim() || others[0].email.split("@")[0] : "";
  return { meName, othersName: one || "Others" };
}

/**
 * The segments attributed by channel to the sides (`sideNames`), from the levels of the
 * recording at `audio` (or those measured already, live), or as they were if that fails.
 */
export async function attributeSides<
  S extends { startSec: number; endSec: number; speaker: string; text: string; words?: TimedWord[] },
>(
  sides: { meName: string; othersName: string },
  from: { audio: string } | { meter: LevelMeter },
  segments: S[],
  o: { signal?: AbortSignal; onError?: (err: unknown) => void } = {},
): Promise<S[]> {
  try {
    const meter = "meter" in from ? from.meter : await decodeLevels(from.audio, { signal: o.signal });
    return attributeByChannel(meter, segments, sides);
  } catch (err) {
    if (o.signal?.aborted) throw err;
    o.onError?.(err);
    return segments;
  }
}
