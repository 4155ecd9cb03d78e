// This server's local models as workspaces see them: whether their admins may set them
// up and choose them (the operator's --no-workspace-local-models says no), the refusal
// that says so, and a workspace's stored choices with the local ones set aside.
import { workspacePolicy } from "../core/access.js";
import { ForbiddenError } from "../core/errors.js";
import type { Principal } from "../core/principal.js";
import type { AiSettings } from "../shared/schemas/templates.js";

/** Why a workspace may not use this server's local models, told wherever one is asked for. */
export const OPERATOR_KEEPS_MODELS =
  "This server's local models are set up and chosen by its operator (it runs with --no-workspace-local-models)";

/** Refuses, naming why, a workspace's admin asking to set up or choose a local model where the operator keeps them. */
export function requireServerModels(p: Principal, workspaceLocalModels: boolean, what: string): void {
  if (workspacePolicy.useServerModels(p, { workspaceLocalModels })) return;
  throw new ForbiddenError(
    workspacePolicy.configureAi(p)
      ? `${what}: ${OPERATOR_KEEPS_MODELS}; use a server of your own in Settings → AI, or ask the operator.`
      : `${what}: only an admin of the workspace can set up or choose this server's local models.`,
  );
}

/**
 * A workspace's stored choices as they apply: where the operator keeps the local models,
 * a local engine chosen earlier gives way to the server's own choice.
 */
export function applicableChoices(s: AiSettings, workspaceLocalModels: boolean): AiSettings {
  if (workspaceLocalModels) return s;
  return {
    ...s,
    transcription: s.transcription?.engine === "whisper" ? { ...s.transcription, engine: null } : s.transcription,
    llm: s.llm?.engine === "local" ? { ...s.llm, engine: null } : s.llm,
    speakerSeparation: s.speakerSeparation === "local" ? "off" : s.speakerSeparation,
  };
}
