// Setting up the local speaker models from the web app (or the CLI's `models pull
// speakers`): both files are downloaded with their checksums verified, tried once on a
// second of silence so that a file sherpa-onnx cannot load is refused now rather than
// at the next meeting, and the workspace then splits its recordings into voices.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Principal } from "../core/principal.js";
import type { Logger } from "../core/logger.js";
import { BYTES_PER_SECOND } from "../ai/audio.js";
import { pullSpeakerModels, speakerModelPaths, type SpeakerModelPaths } from "../ai/diarization/models.js";
import { diarizePcm, DiarizationError } from "../ai/diarization/diarize.js";
import { createSetupRunner, type SpeechSetupState } from "./setup-runner.js";
import type { AiConfigService } from "./ai-config.js";

/** Downloads the models, then proves sherpa-onnx loads them; a model it cannot load is removed. */
export async function setUpSpeakerModels(
  dataDir: string,
  o: { mirror?: string; onProgress?: (received: number, total: number | null) => void; signal?: AbortSignal } = {},
): Promise<SpeakerModelPaths> {
  const models = await pullSpeakerModels(dataDir, o);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "notula-speakers-"));
  try {
    const silence = path.join(dir, "silence.pcm");
    await fsp.writeFile(silence, Buffer.alloc(2 * BYTES_PER_SECOND));
    await diarizePcm(silence, { models, signal: o.signal });
  } catch (err) {
    if (err instanceof DiarizationError)
      await Promise.all(Object.values(speakerModelPaths(dataDir)).map((f) => fsp.rm(f, { force: true })));
    throw err instanceof DiarizationError ? new DiarizationError(`${err.message}; the files were removed`) : err;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  return models;
}

export function createSpeakerSetup(d: {
  dataDir: string;
  modelsUrl?: string;
  ai: Pick<AiConfigService, "useLocalSpeakers">;
  logger: Logger;
  /** Whether workspaces' admins may set up the local models (false: the operator's alone). */
  workspaceLocalModels?: boolean;
}) {
  const runner = createSetupRunner({
    what: "its speaker models",
    logger: d.logger,
    workspaceLocalModels: d.workspaceLocalModels,
  });
  return {
    status: runner.status,
    settled: runner.settled,
    start: (p: Principal): SpeechSetupState =>
      runner.start(p, { phase: "downloading", model: "speakers" }, async (update) => {
        await setUpSpeakerModels(d.dataDir, {
          mirror: d.modelsUrl,
          onProgress: (received, total) => update({ received, total }),
        });
        await d.ai.useLocalSpeakers(p);
      }),
  };
}

export type SpeakerSetup = ReturnType<typeof createSpeakerSetup>;
