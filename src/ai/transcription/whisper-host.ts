// The whisper.cpp engine's one child process on this server (whisper-child.ts says why
// a child), and the line of windows waiting for it. One model is loaded at a time and
// kept loaded; one window is transcribed at a time with every core, because on a CPU two
// at once each take twice as long. A live recording's windows go before the others, so
// that words show seconds after they are said while uploads and final passes wait.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { EngineConfigError } from "./engine.js";
import { programPath } from "../programs/index.js";
import { requireWhisperBinding } from "./whisper-binding.js";

/** How far below the server's priority the engine runs (Linux nice values): requests come first. */
const ENGINE_NICE = 10;

export interface WhisperJob {
  modelPath: string;
  /** A 16 kHz mono 16-bit WAV file. */
  wav: string;
  /** A language code, or "auto" to have the model detect it. */
  language: string;
  prompt?: string;
  /**
   * A live draft: goes before the others waiting, and is read with an audio context cut to
   * its length (whisper.cpp pads every window to 30 s; an 8 s draft then costs a third).
   */
  draft?: boolean;
  signal: AbortSignal;
}

export interface WhisperSegment {
  text: string;
  /** Seconds from the start of the WAV. */
  start: number;
  end: number;
}

export interface WhisperResult {
  segments: WhisperSegment[];
  /** The language the model used or detected, when it says. */
  language: string | null;
}

export interface WhisperHost {
  transcribe(job: WhisperJob): Promise<WhisperResult>;
  /** Loads the model (if it is not loaded) and says whether it knows other languages than English. */
  describe(modelPath: string, signal?: AbortSignal): Promise<{ multilingual: boolean }>;
  /** Ends the child; the next job starts another. */
  close(): Promise<void>;
}

type Reply =
  | { ready: true; multilingual: boolean }
  | { refused: string }
  | { id: number; segments: WhisperSegment[]; language: string | null }
  | { id: number; error: string };

interface Engine {
  child: ChildProcess;
  modelPath: string;
  ready: Promise<{ multilingual: boolean }>;
  /** The last of what the engine wrote to stderr (whisper.cpp's log), for a crash's reason. */
  log: () => string;
  exited: Promise<void>;
}

interface Waiting {
  job: WhisperJob;
  resolve(r: WhisperResult): void;
  reject(e: unknown): void;
}

export function createWhisperHost(o: { threads?: number; nice?: number } = {}): WhisperHost {
  const threads = o.threads ?? os.availableParallelism();
  const nice = o.nice ?? ENGINE_NICE;
  const line: Waiting[] = [];
  let engine: Engine | null = null;
  let running = false;
  let nextId = 0;

  function start(modelPath: string): Engine {
    const child = spawn(process.execPath, [programPath("whisper-child.cjs"), requireWhisperBinding(), modelPath], {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    try {
      if (child.pid && nice) os.setPriority(child.pid, nice);
    } catch {
      // Not permitted here: the engine runs at the server's priority.
    }
    let log = "";
    child.stderr!.on("data", (c) => (log = (log + c).slice(-4000)));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const ready = new Promise<{ multilingual: boolean }>((resolve, reject) => {
      const onMessage = (m: Reply) => {
        if ("ready" in m) resolve({ multilingual: m.multilingual });
        else if ("refused" in m)
          reject(new EngineConfigError(`${modelPath} is not a whisper.cpp model the engine can load (${m.refused}).`));
        else return;
        child.off("message", onMessage);
      };
      child.on("message", onMessage);
      // A model that ends the engine as it loads is as unusable as one it refuses.
      child.once("exit", (code, signal) =>
        reject(
          new EngineConfigError(`The whisper engine stopped while loading ${modelPath} (${signal ?? `exit ${code}`}).`),
        ),
      );
      child.once("error", reject);
    });
    ready.catch(() => {});
    const e: Engine = { child, modelPath, ready, log: () => log, exited };
    void exited.then(() => {
      if (engine === e) engine = null;
    });
    idle(e);
    return e;
  }

  /** An engine waiting for work does not keep a process (a command, a test) alive. */
  function idle(e: Engine) {
    e.child.unref();
    e.child.channel?.unref();
  }
  function busy(e: Engine) {
    e.child.ref();
    e.child.channel?.ref();
  }

  async function stop(e: Engine | null) {
    if (!e) return;
    if (engine === e) engine = null;
    // Held until it has exited, so that whoever awaits this (a command closing) sees it gone.
    busy(e);
    e.child.kill("SIGKILL");
    await e.exited;
  }

  async function engineFor(modelPath: string): Promise<Engine> {
    if (engine?.modelPath !== modelPath) {
      await stop(engine);
      engine = start(modelPath);
    }
    const e = engine;
    busy(e);
    try {
      await e.ready;
    } catch (err) {
      await stop(e);
      throw err;
    }
    return e;
  }

  async function run(job: WhisperJob): Promise<WhisperResult> {
    const e = await engineFor(job.modelPath);
    job.signal.throwIfAborted();
    const id = nextId++;
    return new Promise<WhisperResult>((resolve, reject) => {
      const done = () => {
        e.child.off("message", onMessage);
        e.child.off("exit", onExit);
        job.signal.removeEventListener("abort", onAbort);
      };
      const onMessage = (m: Reply) => {
        if (!("id" in m) || m.id !== id) return;
        done();
        if ("error" in m) reject(new Error(`whisper could not transcribe the window: ${m.error}`));
        else resolve({ segments: m.segments, language: m.language });
      };
      const onExit = (code: number | null, signal: string | null) => {
        done();
        const last = e.log().trim().split("\n").pop();
        reject(new Error(`The whisper engine stopped (${signal ?? `exit ${code}`})${last ? `: ${last}` : ""}.`));
      };
      // Cancelled mid-window: the child is ended, which frees the engine at once.
      const onAbort = () => {
        done();
        void stop(e);
        reject(job.signal.reason);
      };
      e.child.on("message", onMessage);
      e.child.once("exit", onExit);
      job.signal.addEventListener("abort", onAbort, { once: true });
      e.child.send({
        id,
        wav: job.wav,
        language: job.language,
        prompt: job.prompt ?? "",
        draft: job.draft ?? false,
        threads,
      });
    });
  }

  async function drain() {
    if (running) return;
    running = true;
    try {
      for (let next = line.shift(); next; next = line.shift()) {
        try {
          next.resolve(await run(next.job));
        } catch (err) {
          next.reject(err);
        }
      }
    } finally {
      running = false;
      if (engine) idle(engine);
    }
  }

  return {
    transcribe(job) {
      return new Promise<WhisperResult>((resolve, reject) => {
        job.signal.throwIfAborted();
        // Cancelled while it waits: out of the line. The listener goes with the job, since
        // one signal (a job's) serves many windows.
        const onAbort = () => {
          const i = line.indexOf(waiting);
          if (i !== -1) {
            line.splice(i, 1);
            reject(job.signal.reason);
          }
        };
        const settle =
          <T>(f: (v: T) => void) =>
          (v: T) => {
            job.signal.removeEventListener("abort", onAbort);
            f(v);
          };
        const waiting: Waiting = { job, resolve: settle(resolve), reject: settle(reject) };
        // Drafts after the drafts already waiting, before every other window.
        const at = job.draft ? line.findIndex((w) => !w.job.draft) : -1;
        line.splice(at === -1 ? line.length : at, 0, waiting);
        job.signal.addEventListener("abort", onAbort, { once: true });
        void drain();
      });
    },
    async describe(modelPath, signal) {
      signal?.throwIfAborted();
      if (engine?.modelPath === modelPath) return engine.ready;
      if (running) {
        // Another model is working: ask a child of its own rather than unload that one.
        const probe = start(modelPath);
        try {
          return await probe.ready;
        } finally {
          await stop(probe);
        }
      }
      const e = await engineFor(modelPath);
      idle(e);
      return e.ready;
    },
    async close() {
      for (const w of line.splice(0)) w.reject(new Error("The whisper engine was closed."));
      await stop(engine);
    },
  };
}
