// A workspace's AI configuration: which engines make its transcripts and notes, in
// which languages, with which vocabulary. What a workspace leaves unset falls back to
// the server's flags and environment. API keys are sealed at rest and never returned.
import type { WhisperHost } from "../ai/transcription/whisper-host.js";
import path from "node:path";
import type { Config } from "../config/schema.js";
import type { Repositories } from "../db/repos/index.js";
import {
  localLlmFile,
  selectAnswerer,
  selectChatModel,
  selectSummarizer,
  selectTranscriber,
  transcriptionFacts,
} from "../ai/select.js";
import { llamaBindingPath, type LocalLlm } from "../ai/llm/local-llama.js";
import { answererWithFallback, summarizerWithFallback } from "../ai/llm/local-fallback.js";
import { createExtractiveSummarizer } from "../ai/summarization/extractive.js";
import { createExtractiveAnswerer } from "../ai/ask/answerers.js";
import { EngineConfigError } from "../ai/transcription/engine.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import type { SpeechToText } from "../ai/transcription/engine.js";
import type { WorkspaceEngines } from "./workspace-engines.js";
import { BadRequestError, ForbiddenError } from "../core/errors.js";
import { iso, type Clock } from "../core/clock.js";
import type { Principal } from "../core/principal.js";
import { workspacePolicy } from "../core/access.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Net, Outbound } from "../net/outbound.js";
import { engineCache } from "./engine-cache.js";
import { missingSpeakerModels, speakerModelPaths } from "../ai/diarization/models.js";
import type { AiSettingsStore } from "./ai-settings-store.js";
import { applicableChoices, requireServerModels } from "./server-models.js";
import { type AiConfigDto, type AiConfigUpdateInput, type AiSettings } from "../shared/schemas/templates.js";

/** The server's own AI settings: the defaults under every workspace's. */
export interface AiDefaults {
  transcription: Config["transcription"];
  summarization: Config["summarization"];
  dataDir: string;
  /**
   * The ways out: a workspace's own AI and speech URLs go through "ai" and "speech",
   * held to --allow-private-ai-urls (a local Ollama); the server's own are the operator's.
   */
  net: Net;
  /** The sentence embedder, which the offline summarizer uses to fill template sections. */
  embedder: Embedder | null;
  /** The local language model's host (null where the server runs none). */
  localLlm: LocalLlm | null;
  /** The local whisper engine's host (null where the server runs none). */
  whisperHost: WhisperHost | null;
  /** Whether workspaces' admins may set up and choose the local models (false: the operator's alone). */
  workspaceLocalModels?: boolean;
}

export type { WorkspaceEngines } from "./workspace-engines.js";
export { createAiSettingsStore, type AiSettingsStore } from "./ai-settings-store.js";
export function createAiConfigService(
  repos: Repositories,
  store: AiSettingsStore,
  secrets: SecretBox,
  defaults: AiDefaults,
  now: Clock,
) {
  /** Told after an admin changed the workspace's engines (waiting recordings are tried again). */
  const listeners: ((workspaceId: string) => Promise<unknown>)[] = [];
  const changed = async (workspaceId: string) => {
    for (const listener of listeners) await listener(workspaceId);
  };
  const transcribers = engineCache<SpeechToText>();
  const transcriberFor = (c: Config["transcription"], out: Outbound) =>
    selectTranscriber(c, out, defaults.dataDir, defaults.whisperHost);
  const aiOut = defaults.net.for("ai");
  const workspaceLocalModels = defaults.workspaceLocalModels !== false;

  /** Said when saved (and before each use), so that an admin hears at once; the connection checks again. */
  async function checkUrl(field: string, raw: string, out: Outbound = aiOut) {
    const priv = await out.privateAddressesOf(new URL(raw)).catch(() => [] as string[]);
    if (priv.length)
      throw new BadRequestError(
        `${field}: ${new URL(raw).hostname} is on this machine or a private network (${priv.join(", ")}), which only the server's operator can allow (by starting notula with --allow-private-ai-urls); use a server reachable on the internet, or ask them.`,
      );
  }

  /** The workspace's settings over the server's, keys opened. */
  async function merged(workspaceId: string) {
    const s = applicableChoices(await store.read(workspaceId), workspaceLocalModels);
    const row = await repos.templates.settings(workspaceId);
    const t = s.transcription ?? {};
    const l = s.llm ?? {};
    const transcription: Config["transcription"] = {
      ...defaults.transcription,
      ...(t.engine ? { engine: t.engine } : {}),
      ...(t.url ? { url: t.url } : {}),
      ...(t.model ? { model: t.model } : {}),
      ...(row?.sttApiKeyEnc ? { apiKey: secrets.open(row.sttApiKeyEnc) } : {}),
      ...(t.language ? { language: t.language } : {}),
    };
    const summarization: Config["summarization"] = {
      ...defaults.summarization,
      ...(l.engine ? { engine: l.engine } : {}),
      ...(l.url ? { url: l.url } : {}),
      ...(l.model ? { model: l.model } : {}),
      ...(row?.llmApiKeyEnc ? { apiKey: secrets.open(row.llmApiKeyEnc) } : {}),
    };
    // The server's own URL is the operator's; a workspace's is held to the switch.
    const speechOut = defaults.net.for("speech", t.url ? "workspace" : "operator");
    const llmOut = defaults.net.for("ai", l.url ? "workspace" : "operator");
    return { settings: s, row, transcription, summarization, speechOut, llmOut, vocabulary: t.vocabulary ?? [] };
  }

  async function present(workspaceId: string): Promise<AiConfigDto> {
    const m = await merged(workspaceId);
    const { settings: s, row } = m;
    let transcription: string;
    try {
      transcription = transcriberFor(m.transcription, m.speechOut).name;
    } catch (err) {
      transcription = `none (${(err as Error).message})`;
    }
    let summary: string;
    try {
      summary = selectSummarizer(m.summarization, m.llmOut, defaults.dataDir, defaults.localLlm).name;
    } catch (err) {
      summary = `extractive (${(err as Error).message})`;
    }
    const localFile = localLlmFile(m.summarization, defaults.dataDir);
    return {
      defaultTemplateId: s.defaultTemplateId ?? null,
      transcription: {
        engine: s.transcription?.engine ?? null,
        url: s.transcription?.url ?? null,
        model: s.transcription?.model ?? null,
        apiKeySet: Boolean(row?.sttApiKeyEnc),
        language: s.transcription?.language ?? null,
        vocabulary: s.transcription?.vocabulary ?? [],
        // What was taken into the vocabulary is no longer on offer.
        vocabularyOffered: (s.transcription?.vocabularyOffered ?? []).filter(
          (o) => !(s.transcription?.vocabulary ?? []).some((v) => v.toLowerCase() === o.toLowerCase()),
        ),
      },
      llm: {
        engine: s.llm?.engine ?? null,
        url: s.llm?.url ?? null,
        model: s.llm?.model ?? null,
        apiKeySet: Boolean(row?.llmApiKeyEnc),
      },
      localModel: {
        file: localFile ? path.basename(localFile) : null,
        engineInstalled: llamaBindingPath(defaults.dataDir) !== null,
        problem: s.llmProblem?.message ?? null,
        problemAt: s.llmProblem ? iso(s.llmProblem.at) : null,
      },
      localModelsForWorkspaces: workspaceLocalModels,
      privateUrlsForWorkspaces: aiOut.allowPrivate,
      summaryLanguage: s.summaryLanguage ?? null,
      translationLanguage: s.translationLanguage ?? null,
      speakerSeparation: {
        engine: s.speakerSeparation ?? "off",
        ready: missingSpeakerModels(defaults.dataDir).length === 0,
        problem: s.speakerProblem?.message ?? null,
        problemAt: s.speakerProblem ? iso(s.speakerProblem.at) : null,
      },
      effective: {
        transcription,
        transcriptionLanguage:
          m.transcription.language && m.transcription.language !== "auto" ? m.transcription.language : "auto",
        summary,
      },
      updatedAt: row ? iso(row.updatedAt) : null,
    };
  }

  /**
   * Why a recording could not be split into voices (shown on the settings page), or
   * null after one was: written only when it changes.
   */
  async function problem(
    key: "speakerProblem" | "llmProblem",
    workspaceId: string,
    message: string | null,
  ): Promise<void> {
    const was = (await store.read(workspaceId))[key]?.message ?? null;
    if (was === message) return;
    await store.write(workspaceId, (s) => ({
      ...s,
      [key]: message ? { message: message.slice(0, 1000), at: now() } : null,
    }));
  }

  function requireSpeakerModels(p: Principal) {
    requireServerModels(p, workspaceLocalModels, "speakerSeparation");
    const missing = missingSpeakerModels(defaults.dataDir);
    if (missing.length)
      throw new BadRequestError(
        `speakerSeparation: the speaker models are not on this server (${missing.join(", ")} missing); set them up in Settings → Speech-to-text, or with \`notula models pull speakers\`.`,
      );
  }

  /** The server address the workspace's language model would have after a change of `url` (undefined: unchanged). */
  async function llmUrlAfter(workspaceId: string, url: string | null | undefined): Promise<string | undefined> {
    if (url !== undefined) return url ?? defaults.summarization.url;
    return (await store.read(workspaceId)).llm?.url ?? defaults.summarization.url;
  }

  function requireLocalLlm(p: Principal) {
    requireServerModels(p, workspaceLocalModels, "llm.engine");
    if (!localLlmFile(defaults.summarization, defaults.dataDir) || !llamaBindingPath(defaults.dataDir))
      throw new BadRequestError(
        "llm.engine: no local language model is set up on this server; set one up in Settings → AI, or with `notula models pull llm`.",
      );
  }

  return {
    /** Adds what is told when an admin changes a workspace's engines. */
    onChange: (listener: (workspaceId: string) => Promise<unknown>) => void listeners.push(listener),
    get: (p: Principal) => present(p.workspaceId),

    /**
     * Asks the workspace's language model one short question, as its notes and answers
     * will: what it said, or why it could not (an admin's Test button).
     */
    async testLlm(p: Principal): Promise<{ model: string; reply: string }> {
      if (!workspacePolicy.configureAi(p))
        throw new ForbiddenError("Only an admin of the workspace can test its language model.");
      const { summarization: c, llmOut } = await merged(p.workspaceId);
      let model;
      try {
        model = selectChatModel(c, llmOut, defaults.dataDir, defaults.localLlm);
      } catch (err) {
        throw new BadRequestError((err as Error).message);
      }
      if (!model)
        throw new BadRequestError(
          "No language model is set up: notes are extracts, and answers quote the moments found.",
        );
      if (model.name.startsWith("openai:") && c.url) await checkUrl("llm.url", c.url, llmOut);
      const where = model.name.startsWith("openai:") && c.url ? `at ${new URL(c.url).host} ` : "";
      try {
        const r = await model.once(
          [
            { role: "system", content: "Reply with one short sentence." },
            { role: "user", content: "Say that you can read meeting transcripts." },
          ],
          AbortSignal.timeout(60_000),
        );
        return { model: model.name.replace(/^openai:/, ""), reply: r.content.slice(0, 300) };
      } catch (err) {
        throw new BadRequestError(`The model ${where}did not answer: ${(err as Error).message}`);
      }
    },

    /** Writes the workspace's notes and answers with the local model from now on (once it is set up). */
    async useLocalLlm(p: Principal): Promise<void> {
      if (!workspacePolicy.configureAi(p))
        throw new ForbiddenError("Only an admin of the workspace can change what writes its notes.");
      requireLocalLlm(p);
      await store.write(p.workspaceId, (s) => ({ ...s, llm: { ...s.llm, engine: "local" }, llmProblem: null }));
    },

    /** Splits the workspace's recordings into voices from now on (once the models are set up). */
    async useLocalSpeakers(p: Principal): Promise<void> {
      if (!workspacePolicy.configureAi(p))
        throw new ForbiddenError("Only an admin of the workspace can change how its recordings are transcribed.");
      requireSpeakerModels(p);
      await store.write(p.workspaceId, (s) => ({ ...s, speakerSeparation: "local", speakerProblem: null }));
    },

    async update(
      p: Principal,
      input: AiConfigUpdateInput,
      templates: { require(ws: string, id: string, field: string): Promise<unknown> },
    ): Promise<AiConfigDto> {
      if (!workspacePolicy.configureAi(p))
        throw new ForbiddenError(
          "Only an admin of the workspace can change its AI configuration (it decides where recordings and notes are sent).",
        );
      if (input.defaultTemplateId) await templates.require(p.workspaceId, input.defaultTemplateId, "defaultTemplateId");
      if (input.transcription?.url)
        await checkUrl("transcription.url", input.transcription.url, defaults.net.for("speech"));
      if (input.llm?.url) await checkUrl("llm.url", input.llm.url);
      if (input.transcription?.engine === "whisper")
        requireServerModels(p, workspaceLocalModels, "transcription.engine");
      if (input.speakerSeparation === "local") requireSpeakerModels(p);
      if (input.llm?.engine === "local") requireLocalLlm(p);
      if (input.llm?.engine === "openai" && !(await llmUrlAfter(p.workspaceId, input.llm.url)))
        throw new BadRequestError(
          "llm.engine: openai needs a server: give llm.url (this workspace has none, nor the server).",
        );
      await repos.transaction(async () => {
        await store.write(p.workspaceId, (s) => {
          const next: AiSettings = { ...s };
          const pick = <T extends object>(given: T | undefined, was: T | undefined, skip: string[]) => {
            if (!given) return was;
            const out: Record<string, unknown> = { ...(was ?? {}) };
            for (const [k, v] of Object.entries(given)) if (!skip.includes(k)) out[k] = v;
            return out as T;
          };
          if (input.defaultTemplateId !== undefined) next.defaultTemplateId = input.defaultTemplateId;
          next.transcription = pick(input.transcription, s.transcription, ["apiKey"]);
          next.llm = pick(input.llm, s.llm, ["apiKey"]);
          if (input.summaryLanguage !== undefined) next.summaryLanguage = input.summaryLanguage;
          if (input.translationLanguage !== undefined) next.translationLanguage = input.translationLanguage;
          if (input.speakerSeparation !== undefined) {
            next.speakerSeparation = input.speakerSeparation;
            next.speakerProblem = null;
          }
          return next;
        });
        const sttKey = input.transcription?.apiKey;
        const llmKey = input.llm?.apiKey;
        if (sttKey !== undefined || llmKey !== undefined) {
          const row = (await repos.templates.settings(p.workspaceId))!;
          await repos.templates.saveSettings({
            ...row,
            sttApiKeyEnc: sttKey === undefined ? row.sttApiKeyEnc : sttKey === null ? null : secrets.seal(sttKey),
            llmApiKeyEnc: llmKey === undefined ? row.llmApiKeyEnc : llmKey === null ? null : secrets.seal(llmKey),
            updatedAt: now(),
          });
        }
      });
      await changed(p.workspaceId);
      return present(p.workspaceId);
    },

    /** Why the workspace's recordings cannot be transcribed now (no usable engine), or null when they can. */
    async transcriptionProblem(workspaceId: string): Promise<string | null> {
      try {
        // A model file that is there but cannot be loaded (truncated, not a whisper model) is named too.
        const m = await merged(workspaceId);
        await transcriberFor(m.transcription, m.speechOut).ready?.();
        return null;
      } catch (err) {
        if (err instanceof EngineConfigError) return err.message;
        throw err;
      }
    },

    /** What decides whether the workspace's transcription can work (see transcriptionFacts). */
    async transcriptionFacts(workspaceId: string): Promise<string> {
      return transcriptionFacts((await merged(workspaceId)).transcription, defaults.dataDir);
    },

    /** Points the workspace at the local whisper engine (once it is set up). */
    async useLocalWhisper(p: Principal): Promise<void> {
      if (!workspacePolicy.configureAi(p))
        throw new ForbiddenError("Only an admin of the workspace can change its speech-to-text engine.");
      requireServerModels(p, workspaceLocalModels, "transcription.engine");
      await store.write(p.workspaceId, (s) => ({ ...s, transcription: { ...s.transcription, engine: "whisper" } }));
      await changed(p.workspaceId);
    },

    /** The engines and languages for a workspace's notes, resolved when a job runs. */
    async engines(workspaceId: string): Promise<WorkspaceEngines> {
      const m = await merged(workspaceId);
      // Checked again when used: a name may resolve elsewhere than when it was saved.
      if (m.settings.transcription?.url) await checkUrl("transcription.url", m.settings.transcription.url, m.speechOut);
      if (m.settings.llm?.url) await checkUrl("llm.url", m.settings.llm.url, m.llmOut);
      const key = JSON.stringify([m.transcription, m.speechOut.allowPrivate]);
      const llmProblem = (message: string | null) => problem("llmProblem", workspaceId, message);
      const language =
        m.transcription.language && m.transcription.language !== "auto" ? m.transcription.language : undefined;
      const translationLanguage = m.settings.translationLanguage ?? null;
      return {
        transcriber: () => transcribers(key, () => transcriberFor(m.transcription, m.speechOut)),
        summarizer: () =>
          summarizerWithFallback(
            () => selectSummarizer(m.summarization, m.llmOut, defaults.dataDir, defaults.localLlm, defaults.embedder),
            () => createExtractiveSummarizer({ embedder: defaults.embedder }),
            llmProblem,
          ),
        answerer: () =>
          answererWithFallback(
            () => selectAnswerer(m.summarization, m.llmOut, defaults.dataDir, defaults.localLlm),
            createExtractiveAnswerer,
            llmProblem,
          ),
        language,
        vocabulary: m.vocabulary,
        outputLanguage: translationLanguage ?? m.settings.summaryLanguage ?? null,
        translationLanguage,
        speakerModels: m.settings.speakerSeparation === "local" ? speakerModelPaths(defaults.dataDir) : null,
        speakerProblem: (message) => problem("speakerProblem", workspaceId, message),
      };
    },
  };
}

export type AiConfigService = ReturnType<typeof createAiConfigService>;
