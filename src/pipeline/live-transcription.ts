// Transcribing a recording while it is still going. Each stored piece queues a job for
// its recording; the job feeds the pieces that have arrived in order (up to the first
// gap) to a decoder that runs as long as the recording does, so each byte is decoded
// once, and transcribes the windows of audio that are complete: cut at quiet moments,
// all but the last, which may stop mid-word. The note's transcript grows while it is
// `recording`. These live drafts are read in a hurry; behind them the final pass
// (final-pass.ts) reads the same audio in the engine's long windows, and its segments
// take the drafts' place, so that once the recording stops only the rest is left for
// the pipeline to transcribe.
//
// The decoder lives in the worker's memory: a worker that has none for a recording
// (a restart, another replica) starts one and feeds it from the first piece.
import { meetingVocabulary } from "../ai/transcription/engine.js";
import type { Clock } from "../core/clock.js";
import fsp from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { BYTES_PER_SECOND, planWindows } from "../ai/audio.js";
import { storedRows, transcribeWindows, type HeardSegment } from "./transcribe-windows.js";
import { EngineConfigError } from "../ai/transcription/engine.js";
import type { Logger } from "../core/logger.js";
import type { Repositories } from "../db/repos/index.js";
import type { Jobs } from "../jobs/job.js";
import type { WorkerDefinition } from "../jobs/queue.js";
import { defineJob, renamedField } from "../jobs/job.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { Services } from "../services/index.js";
import type { WorkspaceEngines } from "../services/ai-config.js";
import { pieceKey } from "../storage/audio-key.js";
import { attributeSides, hasSides, sideNames } from "./channel-sides.js";
import type { AudioStore } from "../storage/audio-store.js";
import type { NoteRow, SegmentRow } from "../db/stores/note-store.js";
import type { SpeechToText, TranscribeOptions } from "../ai/transcription/engine.js";
import { afterFinalWindow, finalMark, type FinalWindows } from "./final-pass.js";
import { decodedBytes, settled, startDecoder, type Decoder } from "./live-decoder.js";
import { FINAL_CUT_SEC, FINAL_MARGIN_SEC, LIVE_CUT_SEC, LIVE_WINDOW_SEC, liveFinal, liveMarks } from "./live-marks.js";
import { streamPasser } from "./live-stream-pass.js";

// Queued as { uploadId } before recordings had a name of their own.
const payload = renamedField(z.object({ recordingId: z.string() }), "uploadId", "recordingId");

declare module "../jobs/job.js" {
  interface JobPayloads {
    "live-transcription": z.infer<typeof payload>;
  }
}

export interface LiveDeps {
  repos: Repositories;
  store: AudioStore;
  tmpDir: string;
  engines: (workspaceId: string) => Promise<WorkspaceEngines>;
  logger: Logger;
  /** The runtime's clock: when a decoder was last fed, and so when it is idle. */
  now: Clock;
  /** A decoder nobody has fed for this long is closed (its recording went quiet or stopped elsewhere). */
  idleMs?: number;
  /** The final windows under way here, which the pipeline waits for once a recording stops. */
  finalWindows: FinalWindows;
  /** A recording's recognizer that has said a phrase queues its next pass. */
  jobs: Pick<Jobs, "enqueue">;
}

function liveTranscriptionWorker(d: LiveDeps): Omit<WorkerDefinition<z.infer<typeof payload>>, "kind" | "payload"> {
  const decoders = new Map<string, Decoder>();
  /** Aborted when the worker is released (the server stopping): ends every final pass. */
  const stopping = new AbortController();
  let finalLine: Promise<unknown> = Promise.resolve();
  /**
   * One final window at a time on this worker, whatever the number of recordings: they
   * are background work (pocketsphinx would start a process for each), and drafts come first.
   */
  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    const mine = finalLine.then(work, work);
    finalLine = mine.catch(() => {});
    return mine;
  }
  const idleMs = d.idleMs ?? 10 * 60_000;
  const dir = path.join(d.tmpDir, "live");

  /** Closes a recording's decoder; a stopped recording's final window under way is finished first (the pipeline waits for it). */
  async function drop(recordingId: string, o: { finishWindow?: boolean } = {}) {
    const decoder = decoders.get(recordingId);
    if (!decoder) return;
    decoders.delete(recordingId);
    decoder.stream?.kill();
    if (!o.finishWindow) decoder.final?.controller.abort(new Error("The recording's decoder was closed."));
    await decoder.final?.done;
    decoder.proc.kill("SIGKILL");
    await decoder.exited;
    await fsp.rm(decoder.pcm, { force: true });
  }

  // Decoders of recordings that stopped being fed (stopped, or taken over elsewhere).
  const sweep = setInterval(() => {
    for (const [id, decoder] of decoders) if (d.now() - decoder.usedAt > idleMs) void drop(id);
  }, 60_000).unref();

  /** Feeds what has arrived and transcribes what is complete; true when there was new audio to read. */
  async function pass(recordingId: string, signal: AbortSignal): Promise<boolean> {
    // The job's payload names the recording by the field it has always had.
    const recording = await d.repos.recordings.get(recordingId);
    const note = recording?.noteId ? await d.repos.notes.getForProcessing(recording.noteId) : null;
    if (!recording || recording.status !== "recording" || !note || note.status !== "recording") {
      // Stopped and waiting for its pipeline: the window under way is worth finishing.
      await drop(recordingId, { finishWindow: recording?.status === "stopped" && note?.status === "postprocessing" });
      return false;
    }
    // Without an engine there is nothing to do live: the pipeline says why once the recording stops.
    const ai = await d.engines(note.workspaceId);
    let engine;
    try {
      engine = ai.transcriber();
    } catch (err) {
      if (!(err instanceof EngineConfigError)) throw err;
      await drop(recordingId);
      return false;
    }
    const pieces = await d.repos.recordingPieces.list(recordingId);
    let decoder = decoders.get(recordingId);
    if (!decoder || decoder.proc.exitCode !== null) {
      if (decoder) await drop(recordingId);
      await fsp.mkdir(dir, { recursive: true });
      decoder = startDecoder(path.join(dir, `${recordingId}.pcm`), hasSides(note));
      decoders.set(recordingId, decoder);
    }
    decoder.usedAt = d.now();
    const fedBefore = decoder.fedSeq;
    // In order, up to the first piece that has not arrived.
    for (const piece of pieces) {
      if (piece.seq <= decoder.fedSeq) continue;
      if (piece.seq !== decoder.fedSeq + 1 || signal.aborted) break;
      for await (const chunk of d.store.read(pieceKey(recording, piece.seq))) {
        if (!decoder.proc.stdin.write(chunk)) await new Promise((r) => decoder!.proc.stdin.once("drain", r));
      }
      decoder.fedSeq = piece.seq;
    }
    // New pieces, audio the decoder finished after the last pass read its output, or windows left behind.
    const fed = decoder.fedSeq > fedBefore;
    const decoded = await decodedBytes(decoder);
    if (!fed && !decoder.behind && decoded <= decoder.readBytes && !decoder.stream?.pending) return false;
    const size = fed || decoded > decoder.readBytes ? await settled(decoder, decoder.readBytes) : decoded;
    decoder.readBytes = size;
    const vocabulary = meetingVocabulary(ai.vocabulary, note.participants);
    if (engine.stream)
      return streamPass(recordingId, note, decoder, engine, size, { language: ai.language, vocabulary });
    const liveSec = Number(note.processingInfo?.liveSec ?? 0);
    const available = size / BYTES_PER_SECOND;
    const windowSec = Math.min(engine.windowSec, LIVE_WINDOW_SEC);
    const before = liveFinal(note, await d.repos.notes.segmentsOf(note.id));
    const common = {
      signal,
      language: ai.language,
      vocabulary,
      workDir: dir,
      prefix: recordingId,
      draft: true,
    };
    // Every complete window but the last, for good: the last may stop mid-word. One a
    // pass, written as soon as it is heard: behind (pieces that came while the machine
    // was busy, or a restart), the transcript grows window by window rather than all at
    // once after minutes.
    const complete =
      available - liveSec >= windowSec + LIVE_CUT_SEC
        ? (await planWindows(decoder.pcm, windowSec, LIVE_CUT_SEC, liveSec)).slice(0, -1)
        : [];
    const windows = complete.slice(0, 1);
    decoder.behind = complete.length > windows.length;
    // Aborted (the server stopping), it stops with the reason: a part is never written as if it were all.
    const final = windows.length
      ? await transcribeWindows(engine, decoder.pcm, windows, {
          ...common,
          previousText: before.map((s) => s.text).join(" ") || undefined,
        })
      : { segments: [] };
    const reached = windows.length ? windows[windows.length - 1].endSec : liveSec;
    // The rest, provisionally, once the windows are caught up: shown now, transcribed again once its window is complete.
    const tail =
      !decoder.behind && available - reached >= 1
        ? await transcribeWindows(engine, decoder.pcm, [{ startSec: reached, endSec: available }], {
            ...common,
            prefix: `${recordingId}-tail`,
            previousText: [...before, ...final.segments].map((s) => s.text).join(" ") || undefined,
          })
        : { segments: [] };
    const attributed = await attribution(decoder, note);
    const [added, provisional] = [await attributed(final.segments), await attributed(tail.segments)];
    // Written only while the note is still being recorded: once it has stopped, the
    // pipeline owns its transcript (and starts where this left off).
    await d.repos.transaction(async () => {
      const current = await d.repos.notes.getForProcessing(note.id);
      if (current?.status !== "recording") return;
      if (Number(current.processingInfo?.liveSec ?? 0) !== liveSec) return; // another pass got here first
      const kept = liveFinal(current, await d.repos.notes.segmentsOf(note.id));
      // What the final pass has reached meanwhile is its own.
      const finalSec = finalMark(current).sec;
      const committed = [...kept, ...added.filter((s) => s.startSec >= finalSec)];
      await d.repos.notes.replaceTranscript(
        note.id,
        [...committed, ...provisional.filter((s) => s.startSec >= finalSec)],
        {
          processingInfo: liveMarks(current.processingInfo, reached, committed.length, engine.finalWindowSec !== null),
        },
      );
    });
    // Without a final pass the committed lines are final: the model may read what they finish.
    if (engine.finalWindowSec === null) await readAhead(note.id);
    if (engine.finalWindowSec !== null && !decoder.final)
      startFinalPass(recordingId, note.id, decoder, engine, {
        language: common.language,
        vocabulary: common.vocabulary,
        workDir: dir,
      });
    return true;
  }

  /** The meeting's final lines have grown: its model may read the parts they finish (read-ahead.ts). */
  const readAhead = (noteId: string) =>
    d.jobs
      .enqueue("read-ahead", { noteId })
      .catch((err) => d.logger.warn({ err, noteId }, "reading ahead was not queued"));

  /** Rows as stored: a two-channel recording's segments attributed to its sides by the levels measured live. */
  async function attribution(decoder: Decoder, note: NoteRow) {
    const meter = decoder.meter;
    const sides = meter ? await sideNames(d.repos, note) : null;
    return async (segments: HeardSegment[]): Promise<SegmentRow[]> =>
      storedRows(meter && sides ? await attributeSides(sides, { meter }, segments) : segments);
  }

  /**
   * Runs the final pass behind the drafts, window by window, for as long as whole windows
   * are there to read; the next live pass starts it again. It is not part of the job: the
   * drafts never wait for it.
   */
  function startFinalPass(
    recordingId: string,
    noteId: string,
    decoder: Decoder,
    engine: SpeechToText,
    o: Pick<TranscribeOptions, "language" | "vocabulary"> & { workDir: string },
  ) {
    const windowSec = engine.finalWindowSec!;
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, stopping.signal]);
    /** One final window: false once there is none to read (the recording stopped, or too little audio yet). */
    const nextWindow = async (): Promise<boolean> => {
      signal.throwIfAborted();
      const note = await d.repos.notes.getForProcessing(noteId);
      if (note?.status !== "recording") return false;
      const mark = finalMark(note);
      const size = (await fsp.stat(decoder.pcm).catch(() => ({ size: 0 }))).size;
      if (size / BYTES_PER_SECOND - mark.sec < windowSec + FINAL_MARGIN_SEC) return false;
      const [w] = await planWindows(decoder.pcm, windowSec, FINAL_CUT_SEC, mark.sec);
      const before = (await d.repos.notes.segmentsOf(noteId)).slice(0, mark.count);
      const heard = await inTurn(() =>
        transcribeWindows(engine, decoder.pcm, [w], {
          ...o,
          signal,
          prefix: `${recordingId}-final`,
          previousText: before.map((s) => s.text).join(" ") || undefined,
        }),
      );
      const rows = await (await attribution(decoder, note))(heard.segments);
      return d.repos.transaction(async () => {
        const current = await d.repos.notes.getForProcessing(noteId);
        // Stopped meanwhile (postprocessing), the note's pipeline waits for this window and
        // goes on from its mark; once the pipeline has begun, the window is not needed.
        const open = current?.status === "recording" || current?.status === "postprocessing";
        if (!current || !open || finalMark(current).sec !== mark.sec) return false;
        const next = afterFinalWindow(current, await d.repos.notes.segmentsOf(noteId), rows, w.endSec);
        await d.repos.notes.replaceTranscript(noteId, next.segments, {
          processingInfo: { ...(current.processingInfo ?? {}), ...next.marks },
        });
        return current.status === "recording";
      });
    };
    const run = async () => {
      for (;;) {
        // Known before its first await: a pipeline that looks once the recording stops waits for it.
        const window = nextWindow();
        d.finalWindows.track(noteId, window);
        if (!(await window)) return;
        await readAhead(noteId);
      }
    };
    decoder.final = {
      controller,
      done: run()
        .catch((err) => {
          // The pipeline transcribes whatever the final pass leaves.
          if (!signal.aborted) d.logger.warn({ err, recordingId }, "the final pass of a live recording failed");
        })
        .finally(() => {
          decoder.final = null;
        }),
    };
  }

  const streamPass = streamPasser({ d, dir, attribution, startFinalPass });

  return {
    // A recording's job keeps its place while pieces come (2 places: a third meeting's lag p95 20 s).
    concurrency: 8,
    leaseMs: 5 * 60_000,
    timeoutMs: 30 * 60_000,
    maxAttempts: 3,
    backoffMs: () => 5_000,
    async handle({ recordingId }, ctx) {
      try {
        // Pieces that arrive during a pass find this job running and queue nothing: it
        // looks again until a pass finds nothing new.
        // Bounded all the same: an hour behind is 450 windows.
        for (let i = 0; i < 1000 && (await pass(recordingId, ctx.signal)); i++);
        // A phrase said as the last pass ended found this job still running and queued none.
        for (
          let i = 0;
          i < 1000 && decoders.get(recordingId)?.stream?.pending && (await pass(recordingId, ctx.signal));
          i++
        );
      } catch (err) {
        // Live text is a convenience: the pipeline transcribes whatever this leaves. A
        // pass stopped by the server stopping is not a failure.
        if (!ctx.signal.aborted) d.logger.warn({ err, recordingId }, "live transcription pass failed");
        await drop(recordingId);
      }
    },
    async release() {
      clearInterval(sweep);
      stopping.abort(new Error("The server is stopping."));
      await Promise.all([...decoders.keys()].map((id) => drop(id)));
    },
  };
}

type LiveParts = Pick<LiveDeps, "repos" | "store" | "now" | "logger" | "finalWindows" | "jobs"> & {
  config: Pick<ResolvedConfig, "dataDir">;
  services: Pick<Services, "aiConfig">;
};

/** Transcribes what a live recording has received so far; one per recording at a time. */
export const liveTranscriptionJob = defineJob({
  kind: "live-transcription",
  payload,
  key: (p) => `live:${p.recordingId}`,
  worker: ({ config, services, logger, ...p }: LiveParts) =>
    liveTranscriptionWorker({
      ...p,
      tmpDir: path.join(config.dataDir, "tmp"),
      engines: (workspaceId) => services.aiConfig.engines(workspaceId),
      logger: logger.child({ component: "live-transcription" }),
    }),
});
