// One setup at a time on this server (the local speech engine, the speaker models): an
// admin starts it, pages follow its state, and it ends done or failed with a reason.
// Its state lives in memory because what it installs lives on this machine's disk.
import { ForbiddenError } from "../core/errors.js";
import { workspacePolicy } from "../core/access.js";
import type { Principal } from "../core/principal.js";
import type { Logger } from "../core/logger.js";
import { publicErrorMessage } from "../core/error-message.js";
import { requireServerModels } from "./server-models.js";

export interface SpeechSetupState {
  phase: "idle" | "installing" | "downloading" | "checking" | "done" | "failed";
  model: string | null;
  received: number;
  total: number | null;
  error: string | null;
}

export const IDLE: SpeechSetupState = { phase: "idle", model: null, received: 0, total: null, error: null };

export function createSetupRunner(o: {
  what: string;
  logger: Logger;
  /** Whether workspaces' admins may set up the local models (false: the operator's alone). */
  workspaceLocalModels?: boolean;
}) {
  let state = IDLE;
  let running: Promise<void> | null = null;

  function allowed(p: Principal) {
    if (!workspacePolicy.configureAi(p))
      throw new ForbiddenError(`Only an admin of the workspace can set up ${o.what}.`);
  }

  return {
    status(p: Principal): SpeechSetupState {
      allowed(p);
      return state;
    },

    /**
     * Starts `work` from `first` (or joins the setup running) and returns at once;
     * `work` moves the state on with `update`, and `status` follows it.
     */
    start(
      p: Principal,
      first: Partial<SpeechSetupState>,
      work: (update: (change: Partial<SpeechSetupState>) => void) => Promise<void>,
    ): SpeechSetupState {
      allowed(p);
      requireServerModels(p, o.workspaceLocalModels !== false, `Setting up ${o.what}`);
      if (running) return state;
      state = { ...IDLE, ...first };
      running = (async () => {
        try {
          await work((change) => (state = { ...state, ...change }));
          state = { ...state, phase: "done" };
          o.logger.info({ workspaceId: p.workspaceId, model: state.model }, `${o.what} set up`);
        } catch (err) {
          state = { ...state, phase: "failed", error: publicErrorMessage(err) };
          o.logger.warn({ err }, `setting up ${o.what} failed`);
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
