// The processing of one note, as a job: decode → transcribe → summarize. The note's
// status is the checkpoint: a retried or resumed job skips the stages already done,
// and each stage writes its results in one transaction, so nothing is duplicated.
// The same job writes a note again with another template (enhance): then a failure
// gives the note back its previous status, with its previous enhanced note in place.
import { meetingVocabulary } from "../ai/transcription/engine.js";
import { publicErrorMessage } from "../core/error-message.js";
import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { decodeToPcm, MissingProgramError, planWindows, UndecodableAudioError } from "../ai/audio.js";
import { titleOf } from "../ai/summarization/meeting-title.js";
import { summaryInputOf } from "./summary-input.js";
import { partMemo } from "./read-ahead.js";
import { storedRows, transcribeWindows } from "./transcribe-windows.js";
import { finalMark, withoutMarks, type FinalWindows } from "./final-pass.js";
import { EngineConfigError } from "../ai/transcription/engine.js";
import { AppError } from "../core/errors.js";
import type { WorkspaceEngines } from "../services/ai-config.js";
import type { TemplateService } from "../services/templates.js";
import type { RecordingService } from "../services/recordings.js";
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow, SegmentRow } from "../db/stores/note-store.js";
import { PermanentJobError, type WorkerDefinition } from "../jobs/queue.js";
import { defineJob } from "../jobs/job.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { Metrics } from "../core/metrics.js";
import type { Services } from "../services/index.js";
import { audioKey } from "../storage/audio-key.js";
import { formatDuration } from "../core/duration.js";
import { RECORDING_LIMITS } from "../shared/schemas/recordings.js";
import { processingKey, type NoteLifecycle } from "../services/note-lifecycle.js";
import type { EngineWait } from "../services/engine-wait.js";
import type { AudioStore } from "../storage/audio-store.js";
import { noteAudio } from "../services/note-audio.js";
import { attributeSides, hasSides, sideNames } from "./channel-sides.js";
import { separateVoices } from "./speaker-voices.js";
import type { VoicePrints } from "../services/voice-prints.js";

/** How often a note being transcribed is looked for, to stop when it was deleted. */
const DELETION_CHECK_MS = 2_000;

export interface PipelineDeps {
  repos: Repositories;
  store: AudioStore;
  tmpDir: string;
  /** Every status change goes through the life cycle, which fires what follows. */
  lifecycle: NoteLifecycle;
  /** The workspace's engines and languages, resolved per job, so a config error surfaces on the note rather than at start. */
  engines: (workspaceId: string) => Promise<WorkspaceEngines>;
  /** Which template shapes a note's enhanced note. */
  templates: Pick<TemplateService, "forNote" | "spec">;
  /** Joins a live recording's pieces into its one recording before it is decoded. */
  recordings: Pick<RecordingService, "assemble">;
  concurrency: number;
  /** How long a claim lasts without a heartbeat (a dead worker's job is retaken after it). */
  leaseMs?: number;
  maxAttempts: number;
  /** Delay before the first retry; each later one waits four times longer (capped at 10 minutes). */
  retryBaseMs: number;
  /** Where a recording goes that no engine can transcribe yet. */
  engineWait: Pick<EngineWait, "wait">;
  /** A stopped recording's final window under way in this process, waited for. */
  finalWindows: Pick<FinalWindows, "settled">;
  /** Keeps a note's voices and offers the names the workspace knows them by. */
  voicePrints: Pick<VoicePrints, "heard">;
  /** Told as each window of a recording is transcribed. */
  onProgress?: (noteId: string, done: number, total: number) => void;
  /** Told how long each stage took once it is done (metrics). */
  onStage?: (stage: "transcription" | "summary", durationSec: number) => void;
}

const payload = z.object({
  noteId: z.string(),
  /** Enhance with this template rather than the note's default. */
  templateId: z.string().optional(),
  /** Set when enhancing a finished note: the status it goes back to if writing fails. */
  restore: z.enum(["completed", "recorded-not-summarized"]).optional(),
});
export type ProcessNotePayload = z.infer<typeof payload>;

declare module "../jobs/job.js" {
  interface JobPayloads {
    "process-note": ProcessNotePayload;
  }
}

function permanent(err: unknown): Error {
  const final =
    err instanceof EngineConfigError ||
    err instanceof MissingProgramError ||
    err instanceof UndecodableAudioError ||
    err instanceof AppError;
  return final ? new PermanentJobError((err as Error).message) : (err as Error);
}

/** The summary's warnings, after what the recording itself lacks (pieces that never arrived). */
function warningsOf(note: NoteRow, fromSummary: string[]): string[] | null {
  const info = note.processingInfo ?? {};
  const all = [
    ...(info.recordingGaps ? [info.recordingGaps] : []),
    ...(info.speakerWarning ? [info.speakerWarning] : []),
    ...fromSummary,
  ];
  return all.length ? all : null;
}

function processNoteWorker(d: PipelineDeps): Omit<WorkerDefinition<ProcessNotePayload>, "kind" | "payload"> {
  const { repos, lifecycle } = d;

  async function transcribe(note: NoteRow, signal: AbortSignal) {
    const upload = await noteAudio(repos, note);
    if (!upload) throw new PermanentJobError("The note's recording is missing.");
    // A live recording arrived in pieces: they become its one recording first (once),
    // before anything that may fail, so that it plays even when it cannot be transcribed yet.
    if (upload.kind === "recording" && !(await d.store.exists(audioKey(upload))))
      await d.recordings.assemble(upload.recording);
    const ai = await d.engines(note.workspaceId);
    const engine = ai.transcriber();
    let detected: string | undefined;
    const work = path.join(d.tmpDir, `${note.id}-${randomBytes(4).toString("hex")}`);
    await fsp.mkdir(work, { recursive: true });
    const local = await d.store.localFile(audioKey(upload));
    try {
      const pcm = path.join(work, "audio.pcm");
      // A recording transcribed while it went on: only what the final pass had not reached
      // is left, and only that is decoded (the times below are the recording's: its mark is added back).
      const mark = finalMark(note);
      const fromSec = mark.sec;
      // The length an uploader states is checked at upload; the file's own is checked here
      // (a browser may not be able to tell, and a client may say less than the truth).
      // Decoding stops a second past the limit, so a longer file is known without decoding it all.
      const limitSec = RECORDING_LIMITS.maxDurationSec + 60;
      const duration =
        fromSec + (await decodeToPcm(local.path, pcm, { signal, fromSec, maxSec: limitSec + 1 - fromSec }));
      if (duration > limitSec)
        throw new PermanentJobError(
          `The recording is ${formatDuration(duration)} long; notes are made of recordings up to ${formatDuration(RECORDING_LIMITS.maxDurationSec)}.`,
        );
      const windows = await planWindows(pcm, engine.windowSec);
      const segments: SegmentRow[] = fromSec ? (await repos.notes.segmentsOf(note.id)).slice(0, mark.count) : [];
      const heard = await transcribeWindows(engine, pcm, windows, {
        signal,
        // The first window carries on from what the final pass heard last.
        previousText: segments.map((s) => s.text).join(" ") || undefined,
        language: ai.language,
        vocabulary: meetingVocabulary(ai.vocabulary, note.participants),
        workDir: work,
        prefix: "window",
        offsetSec: fromSec,
        // Stored on the note (for `upload --wait`, the web app, any replica's reads) only when the percentage moves.
        onWindow: async (done, total) => {
          const percent = Math.floor((done / total) * 100);
          if (percent !== Math.floor(((done - 1) / total) * 100)) await repos.notes.setProgress(note.id, percent);
          d.onProgress?.(note.id, done, total);
        },
      });
      // A recording of the person and the others on two channels: each segment is theirs or the others'.
      const sides = hasSides(note) ? await sideNames(repos, note) : null;
      const attributed = sides
        ? await attributeSides(sides, { audio: local.path }, heard.segments, { signal })
        : heard.segments;
      // Several voices on a side: split by voice where the workspace has the speaker models on.
      const voices = await separateVoices(attributed, {
        models: ai.speakerModels,
        audio: local.path,
        workDir: work,
        sides,
        people: note.participants?.length || undefined,
        report: ai.speakerProblem,
        signal,
      });
      segments.push(...storedRows(voices.segments));
      detected ??= heard.language;
      const { awaitingEngine: _waited, ...info } = withoutMarks(note.processingInfo);
      delete info.speakers;
      delete info.speakerWarning;
      await lifecycle.transcribed(note, segments, {
        // Whole seconds as a player counts them (1:10 for 70.6 s), so the page and the player agree.
        totalDurationSec: duration > 0 ? Math.max(1, Math.floor(duration)) : 0,
        processingInfo: {
          ...info,
          transcription: engine.name,
          ...(voices.engine ? { speakers: voices.engine } : {}),
          ...(voices.warning ? { speakerWarning: voices.warning } : {}),
        },
        inputLanguage: detected ?? ai.language ?? note.inputLanguage,
      });
      // The voices heard, kept for naming, and named already where the workspace knows them.
      await d.voicePrints.heard(note, voices.voices);
    } finally {
      await local.release();
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  /**
   * A signal aborted once the note is deleted (from any replica: its row is read every
   * few seconds), so that a transcription nobody will read stops mid-window and gives
   * the engine back.
   */
  function whileTheNoteExists(noteId: string) {
    const gone = new AbortController();
    const look = setInterval(() => {
      repos.notes.getForProcessing(noteId).then(
        (n) => n || gone.abort(new Error("The note was deleted.")),
        () => {},
      );
    }, DELETION_CHECK_MS).unref();
    return { signal: gone.signal, stop: () => clearInterval(look) };
  }

  async function summarize(note: NoteRow, job: ProcessNotePayload, signal: AbortSignal) {
    const ai = await d.engines(note.workspaceId);
    const summarizer = ai.summarizer();
    const { input, names } = await summaryInputOf(d, ai, note, { templateId: job.templateId });
    const { transcript, template, people } = input;
    const result = await summarizer.summarize(input, {
      signal,
      // A note written again keeps its text when the model's answer is not a note.
      offlineOnBadAnswer: !job.restore,
      // What was read of it while it was recorded.
      memo: partMemo(repos, note.id),
    });
    // A note nobody titled is named for what the meeting talked about.
    const title = note.titleFromContent
      ? titleOf(transcript, [...(people ?? []), ...[...names.values()].map((n) => n.name ?? "")].filter(Boolean))
      : null;
    await lifecycle.summarized(
      note,
      {
        ...(title ? { title } : {}),
        summary: result.summary,
        enhancedNote: result.enhancedNote,
        // What really wrote it: a model that failed hands its note to the offline method.
        processingInfo: { ...(note.processingInfo ?? {}), summary: result.writtenBy ?? summarizer.name },
        templateId: template.id,
        processingWarnings: warningsOf(note, result.warnings),
        // Set only when the note really was written in the translation target.
        translationLanguage:
          ai.translationLanguage && result.language === ai.translationLanguage ? ai.translationLanguage : null,
      },
      { updated: Boolean(job.restore) },
    );
    await repos.summaryParts.clear(note.id);
  }

  return {
    concurrency: d.concurrency,
    leaseMs: d.leaseMs ?? 60_000,
    timeoutMs: 6 * 3600_000,
    maxAttempts: d.maxAttempts,
    backoffMs: (attempt) => Math.min(10 * 60_000, d.retryBaseMs * 4 ** (attempt - 1)),
    async handle(job, { signal }) {
      const { noteId } = job;
      let note = await repos.notes.getForProcessing(noteId);
      if (!note) return; // deleted meanwhile
      try {
        if (note.status === "postprocessing" || note.status === "transcript-processing") {
          // A recording that just stopped: the final window under way here ends first, and
          // the transcription goes on from where it got to.
          if (await d.finalWindows.settled(noteId)) {
            note = await repos.notes.getForProcessing(noteId);
            if (!note) return;
          }
          await lifecycle.transcriptionStarted(note);
          const started = performance.now();
          const deleted = whileTheNoteExists(noteId);
          try {
            await transcribe(note, AbortSignal.any([signal, deleted.signal]));
          } catch (err) {
            // Deleted while it was transcribed: the engine was given back at once, and there is nothing to write.
            if (deleted.signal.aborted) return;
            // No engine can do it: the recording waits for one, rather than failing for good.
            if (!(err instanceof EngineConfigError)) throw err;
            await d.engineWait.wait(note, err.message);
            return;
          } finally {
            deleted.stop();
          }
          d.onStage?.("transcription", (performance.now() - started) / 1000);
          note = await repos.notes.getForProcessing(noteId);
          if (!note) return;
        }
        if (note.status === "summarizing") {
          const started = performance.now();
          await summarize(note, job, signal);
          d.onStage?.("summary", (performance.now() - started) / 1000);
        }
      } catch (err) {
        throw permanent(err);
      }
    },
    async onExhausted({ noteId, restore }, error) {
      // The note shows why; the server's paths stay in its log.
      const reason = publicErrorMessage(error);
      if (restore)
        await lifecycle.enhanceFailed(
          noteId,
          restore,
          `Enhancing failed, so the note keeps its previous enhanced note: ${reason}`,
        );
      else
        await lifecycle.failed(
          noteId,
          (status) => `${status === "summarizing" ? "Summarizing" : "Transcription"} failed: ${reason}`,
        );
    },
  };
}

/** Transcribes and writes up a note, or enhances a finished one with a template. */
export const processNoteJob = defineJob({
  kind: "process-note",
  payload,
  key: (p) => processingKey(p.noteId),
  // Only a waiting job absorbs a new one: a running job may be past the point where it
  // would see the note's new status (it has just completed it), so it cannot stand in.
  coalesce: "queued",
  worker: (p: {
    repos: Repositories;
    store: AudioStore;
    lifecycle: NoteLifecycle;
    services: Pick<Services, "aiConfig" | "templates" | "recordings" | "engineWait" | "voicePrints">;
    config: Pick<ResolvedConfig, "dataDir" | "pipeline">;
    metrics: Pick<Metrics, "stage">;
    finalWindows: FinalWindows;
  }) =>
    processNoteWorker({
      repos: p.repos,
      store: p.store,
      tmpDir: path.join(p.config.dataDir, "tmp"),
      lifecycle: p.lifecycle,
      engines: (workspaceId) => p.services.aiConfig.engines(workspaceId),
      templates: p.services.templates,
      recordings: p.services.recordings,
      engineWait: p.services.engineWait,
      voicePrints: p.services.voicePrints,
      concurrency: p.config.pipeline.concurrency,
      maxAttempts: p.config.pipeline.maxAttempts,
      retryBaseMs: p.config.pipeline.retryBaseMs,
      leaseMs: p.config.pipeline.leaseMs,
      onStage: p.metrics.stage,
      finalWindows: p.finalWindows,
    }),
});
