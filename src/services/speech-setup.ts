// Setting up the local speech-to-text engine from the web app: an admin starts it, the
// page follows its progress, and once it is done the workspace transcribes with it (and
// its waiting recordings are tried again).
import type { Principal } from "../core/principal.js";
import type { Logger } from "../core/logger.js";
import { setUpLocalEngine, type LocalEngineSetupOptions } from "../ai/local-engine-setup.js";
import type { AiConfigService } from "./ai-config.js";
import { createSetupRunner, type SpeechSetupState } from "./setup-runner.js";

export type { SpeechSetupState } from "./setup-runner.js";

export function createSpeechSetup(d: {
  dataDir: string;
  modelsUrl?: string;
  ai: Pick<AiConfigService, "useLocalWhisper">;
  logger: Logger;
  /** Whether workspaces' admins may set up the local models (false: the operator's alone). */
  workspaceLocalModels?: boolean;
  /** The work itself; the real installer and download unless a test gives another. */
  setUp?: (o: LocalEngineSetupOptions) => Promise<{ modelPath: string }>;
}) {
  const setUp = d.setUp ?? setUpLocalEngine;
  const runner = createSetupRunner({
    what: "its speech-to-text engine",
    logger: d.logger,
    workspaceLocalModels: d.workspaceLocalModels,
  });
  return {
    status: runner.status,
    settled: runner.settled,
    start: (p: Principal, model: string): SpeechSetupState =>
      runner.start(p, { phase: "downloading", model }, async (update) => {
        await setUp({
          dataDir: d.dataDir,
          model,
          modelsUrl: d.modelsUrl,
          onStep: (step) => {
            if (step.phase === "downloading")
              update({ phase: "downloading", received: step.received, total: step.total });
          },
        });
        await d.ai.useLocalWhisper(p);
      }),
  };
}

export type SpeechSetup = ReturnType<typeof createSpeechSetup>;
