// Reads a note's parts (folders, transcript, speaker names, template) and presents it
// in the single-read shape that the REST read, MCP and webhook events share.
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow, NoteWithParts, SegmentRow, StoredSegment } from "../db/stores/note-store.js";
import type { SpeakerNameRow } from "../db/repos/speakers.js";
import { presentNote } from "../db/repos/note-shape.js";
import { builtinTemplate } from "../ai/templates/builtin.js";
import { toTimestamp } from "../core/transcript-time.js";
import type { NoteDto } from "../shared/schemas/notes.js";

export type SpeakerDto = NonNullable<NoteDto["speakers"]>[number];

/** How long a set of time spans covers: overlapping spans count once. */
export function coveredSec(spans: [number, number][]): number {
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

/**
 * Every label of a transcript with its name and talk time, the most talkative first.
 * Talk time is the time a speaker's segments cover: engines give neighbouring segments
 * that overlap by a moment, and counted twice they would add up to more than the meeting.
 */
export function speakersOf(
  segments: SegmentRow[],
  names: Map<string, SpeakerNameRow>,
  /** How long the meeting is, when known: segment times rounded up do not run past it. */
  meetingSec?: number | null,
): SpeakerDto[] {
  const end = meetingSec && meetingSec > 0 ? meetingSec : Infinity;
  const byLabel = new Map<string, SpeakerDto>();
  const spans = new Map<string, [number, number][]>();
  for (const s of segments) {
    let sp = byLabel.get(s.speaker);
    if (!sp) {
      const named = names.get(s.speaker);
      sp = {
        label: s.speaker,
        name: named?.name ?? s.speaker,
        email: named?.email ?? null,
        suggested: named?.suggested ?? false,
        talkTimeSec: 0,
        segments: 0,
      };
      byLabel.set(s.speaker, sp);
      spans.set(s.speaker, []);
    }
    const to = Math.min(s.endSec, end);
    if (to > s.startSec) spans.get(s.speaker)!.push([s.startSec, to]);
    sp.segments++;
  }
  for (const sp of byLabel.values()) sp.talkTimeSec = Math.round(coveredSec(spans.get(sp.label)!));
  return [...byLabel.values()].sort((a, b) => b.talkTimeSec - a.talkTimeSec || a.label.localeCompare(b.label));
}

async function templateOf(repos: Repositories, row: NoteRow): Promise<NoteDto["template"]> {
  if (!row.templateId) return null;
  const builtIn = builtinTemplate(row.templateId);
  if (builtIn) return { id: builtIn.id, name: builtIn.name };
  const own = await repos.templates.get(row.workspaceId, row.templateId);
  // Deleted since: the id still says which it was.
  return { id: row.templateId, name: own?.name ?? null };
}

/** A transcript line as it is read and corrected: its id and version, and its speaker by name where one was given. */
export function presentSegment(s: StoredSegment, names: ReadonlyMap<string, Pick<SpeakerNameRow, "name">>) {
  return {
    id: s.id,
    version: s.version,
    speaker: names.get(s.speaker)?.name ?? s.speaker,
    text: s.text,
    startTimestamp: toTimestamp(s.startSec),
    endTimestamp: toTimestamp(s.endSec),
  };
}

/** A note as its single read shows it; `read` is what `getWithParts` brought already, else the parts are read here. */
export async function presentFullNote(
  repos: Repositories,
  row: NoteRow,
  publicUrl: string,
  read?: NoteWithParts,
): Promise<NoteDto> {
  const segments = read?.segments ?? (await repos.notes.segmentsOf(row.id));
  const names = read
    ? new Map(read.speakerNames.map((s) => [s.label, s]))
    : segments.length
      ? await repos.speakers.namesOf(row.id)
      : new Map<string, SpeakerNameRow>();
  const transcripts = segments.map((s) => presentSegment(s, names));
  const share = row.visibility === "public" ? await repos.shares.forNote(row.id) : null;
  return presentNote(row, {
    tags: read?.tags ?? (await repos.notes.foldersOf([row.id])).get(row.id) ?? [],
    transcripts,
    shareUrl: share ? `${publicUrl}/s/${share.token}` : null,
    speakers: speakersOf(segments, names, row.totalDurationSec),
    template: await templateOf(repos, row),
  });
}
