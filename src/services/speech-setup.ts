// Setting up the local speech-to-text engine from the web app: an admin starts it, the
// page follows its progress, and once it is done the workspace transcribes with it (and
// its waiting recordings are tried again). One setup runs per server process; its state
// lives in memory because what it installs lives on this machine's disk.
import { ForbiddenError } from "../core/errors.js";
import { workspacePolicy } from "../core/access.js";
import type { Principal } from "../core/principal.js";
import type { Logger } from "../core/logger.js";
import { setUpLocalEngine, type LocalEngineSetupOptions } from "../ai/local-engine-setup.js";
import { publicErrorMessage } from "../core/error-message.js";
import type { AiConfigService } from "./ai-config.js";

export interface SpeechSetupState {
  phase: "idle" | "installing" | "downloading" | "done" | "failed";
  model: string | null;
  received: number;
  total: number | null;
  error: string | null;
}

const IDLE: SpeechSetupState = { phase: "idle", model: null, received: 0, total: null, error: null };

export function createSpeechSetup(d: {
  dataDir: string;
  modelsUrl?: string;
  ai: Pick<AiConfigService, "useLocalWhisper">;
  logger: Logger;
  /** The work itself; the real installer and download unless a test gives another. */
  setUp?: (o: LocalEngineSetupOptions) => Promise<{ modelPath: string }>;
}) {
  const setUp = d.setUp ?? setUpLocalEngine;
  let state: SpeechSetupState = IDLE;
  let running: Promise<void> | null = null;

  function allowed(p: Principal) {
    if (!workspacePolicy.configureAi(p))
      throw new ForbiddenError("Only an admin of the workspace can set up its speech-to-text engine.");
  }

  return {
    status(p: Principal): SpeechSetupState {
      allowed(p);
      return state;
    },

    /** Starts the setup (or joins the one running) and returns at once; `status` follows it. */
    start(p: Principal, model: string): SpeechSetupState {
      allowed(p);
      if (running) return state;
      state = { ...IDLE, phase: "installing", model };
      running = (async () => {
        try {
          await setUp({
            dataDir: d.dataDir,
            model,
            modelsUrl: d.modelsUrl,
            onStep: (step) => {
              state =
                step.phase === "downloading"
                  ? { ...state, phase: "downloading", received: step.received, total: step.total }
                  : step.phase === "installing"
                    ? { ...state, phase: "installing" }
                    : state;
            },
          });
          await d.ai.useLocalWhisper(p);
          state = { ...state, phase: "done" };
          d.logger.info({ model, workspaceId: p.workspaceId }, "local speech-to-text engine set up");
        } catch (err) {
          state = { ...state, phase: "failed", error: publicErrorMessage(err) };
          d.logger.warn({ err }, "setting up the local speech-to-text engine failed");
        } finally {
          running = null;
        }
      })();
      return state;
    },

    /** Resolves when the running setup (if any) has finished: for tests and shutdown. */
    settled: () => running ?? Promise.resolve(),
  };
}

export type SpeechSetup = ReturnType<typeof createSpeechSetup>;
