// A live pass of an engine that hears a stream (pocketsphinx): the recording's decoded
// audio fed to its recognizer, and the phrases said since written for good.
import { BYTES_PER_SECOND } from "../ai/audio.js";
import type { SpeechToText } from "../ai/transcription/engine.js";
import type { NoteRow, SegmentRow } from "../db/stores/note-store.js";
import { finalMark } from "./final-pass.js";
import { readPcm, type Decoder } from "./live-decoder.js";
import { liveFinal, liveMarks, MAX_PHRASE_SEC } from "./live-marks.js";
import type { Repositories } from "../db/repos/index.js";
import type { Jobs } from "../jobs/job.js";
import type { HeardSegment } from "./transcribe-windows.js";

export function streamPasser(o: {
  d: { repos: Repositories; jobs: Pick<Jobs, "enqueue"> };
  dir: string;
  attribution: (decoder: Decoder, note: NoteRow) => Promise<(segments: HeardSegment[]) => Promise<SegmentRow[]>>;
  startFinalPass: (
    recordingId: string,
    noteId: string,
    decoder: Decoder,
    engine: SpeechToText,
    opts: { language?: string; vocabulary?: string[]; workDir: string },
  ) => void;
}) {
  const { d, dir, attribution, startFinalPass } = o;
  /**
   * A pass of an engine that hears a stream: what was decoded since the last pass is fed
   * to the recording's recognizer, and the phrases it has said since are written for
   * good. The final pass reads the recording again behind them, as it does the windows.
   */
  return async function streamPass(
    recordingId: string,
    note: NoteRow,
    decoder: Decoder,
    engine: SpeechToText,
    size: number,
    meeting: { language?: string; vocabulary: string[] },
  ): Promise<boolean> {
    const { language } = meeting;
    if (!decoder.stream || decoder.stream.exited) {
      // A new decoder (a restart, another replica) decodes the recording from its start:
      // its recognizer hears it from where the transcript stands.
      if (!decoder.streamBytes)
        decoder.streamBytes = Math.floor(Number(note.processingInfo?.liveSec ?? 0) * BYTES_PER_SECOND) & ~1;
      decoder.stream = engine.stream!({
        language,
        offsetSec: decoder.streamBytes / BYTES_PER_SECOND,
        // Said between pieces: written now, not when the next piece comes.
        onPhrase: () => void d.jobs.enqueue("live-transcription", { recordingId }).catch(() => {}),
      });
    }
    const stream = decoder.stream;
    // A pass's worth of time ago: the recognizer has heard that much by now.
    const heardBy = decoder.streamSeenSec;
    decoder.streamSeenSec = stream.fedSec;
    const upTo = size & ~1;
    const fed = upTo > decoder.streamBytes;
    if (fed) {
      stream.write(await readPcm(decoder.pcm, decoder.streamBytes, upTo));
      decoder.streamBytes = upTo;
    }
    if (heardBy - stream.heardSec > MAX_PHRASE_SEC) {
      await stream.finish();
      decoder.stream = null;
    }
    const heard = stream.take();
    // New audio fed: the job looks again, for pieces that came meanwhile.
    if (!heard.length) return fed;
    const added = await (
      await attribution(decoder, note)
    )(
      heard.map((p) => ({
        speaker: p.speaker,
        text: p.text,
        startSec: Math.floor(p.start),
        endSec: Math.ceil(p.end),
        ...(p.words?.length ? { words: p.words } : {}),
      })),
    );
    const reached = Math.max(...heard.map((p) => p.end));
    await d.repos.transaction(async () => {
      const current = await d.repos.notes.getForProcessing(note.id);
      if (current?.status !== "recording") return;
      const kept = liveFinal(current, await d.repos.notes.segmentsOf(note.id));
      // What the final pass has reached meanwhile is its own.
      const finalSec = finalMark(current).sec;
      const committed = [...kept, ...added.filter((s) => s.startSec >= finalSec)];
      const liveSec = Math.max(Number(current.processingInfo?.liveSec ?? 0), reached);
      await d.repos.notes.replaceTranscript(note.id, committed, {
        processingInfo: liveMarks(current.processingInfo, liveSec, committed.length, engine.finalWindowSec !== null),
      });
    });
    if (engine.finalWindowSec !== null && !decoder.final)
      startFinalPass(recordingId, note.id, decoder, engine, { ...meeting, workDir: dir });
    return true;
  };
}
