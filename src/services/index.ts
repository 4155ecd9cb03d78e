import type { Repositories } from "../db/repos/index.js";
import { createApiKeyService } from "./api-keys.js";
import { createAccess } from "./access.js";
import { createAuthentication } from "./authentication.js";
import { createAccountService } from "./accounts.js";
import { createCliGrants } from "./cli-grants.js";
import { createPendingStates } from "./pending.js";
import type { CounterStore } from "./counters.js";
import { prepaidWindow } from "../core/prepaid-window.js";
import { slidingWindow } from "../core/sliding-window.js";
import { concurrencyLimiter } from "../core/concurrency.js";
import type { ResolvedConfig } from "../config/schema.js";
import { createMcpSessions } from "./mcp-sessions.js";
import { createActionItemService } from "./action-items.js";
import { createIdempotency } from "./idempotency.js";
import { createDirectoryService } from "./directory.js";
import { createFolderService } from "./folders.js";
import { createWorkspaceArchive } from "./workspace-archive.js";
import { createInviteService } from "./invites.js";
import { createKnowledgeService } from "./knowledge.js";
import { createNoteService } from "./notes.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Clock } from "../core/clock.js";
import { createSearchService } from "./search.js";
import { createAskService } from "./ask.js";
import { createOAuthService } from "./oauth/service.js";
import { createTokenSigner } from "./oauth/tokens.js";
import { createUploadService } from "./uploads.js";
import { createRecordingService } from "./recordings.js";
import { createWebhookService } from "./webhooks.js";
import { createCalendarService } from "./calendars.js";
import { createPasswordReset } from "./password-reset.js";
import { createNoteRecap } from "./note-recap.js";
import { createNoteSeries } from "./note-series.js";
import { createNotifications } from "./notifications.js";
import { createPeopleSuggestions } from "./people-suggestions.js";
import { createMailConfig, type MailOptions } from "./mail-config.js";
import type { Net } from "../net/outbound.js";
import type { AudioStore } from "../storage/audio-store.js";
import type { NoteLifecycle } from "./note-lifecycle.js";
import type { Embedder } from "../ai/embeddings/embedder.js";
import { createWorkspaceService } from "./workspaces.js";
import { createAiConfigService, createAiSettingsStore, type AiDefaults } from "./ai-config.js";
import { createVocabularyOffers } from "./vocabulary-offers.js";
import { createEngineWait } from "./engine-wait.js";
import type { Jobs } from "../jobs/job.js";
import { createSpeechSetup } from "./speech-setup.js";
import { createSpeakerSetup } from "./speaker-setup.js";
import { createLlmSetup } from "./llm-setup.js";
import { createVoicePrints } from "./voice-prints.js";
import { silentLogger, type Logger } from "../core/logger.js";
import { createTemplateService } from "./templates.js";

export interface ServiceOptions {
  secrets: SecretBox;
  /** Every way out of the server (webhooks, calendars, mail, AI), each with its switch. */
  net: Net;
  /** Mail through the job queue: the server's SMTP server, and the queue. Without it nothing is mailed. */
  mail?: MailOptions;
  audioStore: AudioStore;
  /** The server's public base URL, resolved once at start. */
  publicUrl: string;
  /** The note life cycle: statuses and what follows them. */
  lifecycle: NoteLifecycle;
  /** The background jobs, queued by kind (jobs/job.ts); each service queues its own. */
  jobs: Jobs;
  /** The embedding engine, or null when meaning-based search is off. */
  embedder: Embedder | null;
  /** Where rate limits and sign-in throttling count. */
  counters: CounterStore;
  /** Where services log what happens in the background (the engine setup). */
  logger?: Logger;
  /** The server's own AI settings, under each workspace's. */
  ai: Omit<AiDefaults, "embedder" | "net">;
  /** The runtime's one clock. */
  now: Clock;
  /** The settings the services apply, under their own names: limits, calendars, the largest upload. */
  config: Pick<ResolvedConfig, "limits" | "calendars" | "maxUploadBytes">;
}

/** Every domain service over one set of repositories. */
export function createServices(repos: Repositories, opts: ServiceOptions) {
  const { now } = opts;
  const access = createAccess(repos);
  const apiKeys = createApiKeyService(repos, now);
  const oauth = createOAuthService({
    repos,
    now,
    signer: createTokenSigner(opts.secrets.derive("notula oauth access tokens"), opts.publicUrl),
    resource: `${opts.publicUrl}/mcp`,
  });
  const workspaces = createWorkspaceService(repos, apiKeys, now);
  const pending = createPendingStates(repos, opts.secrets, now);
  const aiSettings = createAiSettingsStore(repos, now);
  const templates = createTemplateService(repos, aiSettings, now);
  const folders = createFolderService(repos, now, templates, access);
  const accounts = createAccountService(repos, workspaces, now, opts.counters);
  const mail = createMailConfig({
    repos,
    secrets: opts.secrets,
    now,
    counters: opts.counters,
    publicUrl: opts.publicUrl,
    mail: opts.mail ?? null,
    outbound: opts.net.for("mail"),
    jobs: opts.jobs,
  });
  const outbox = mail.outbox;
  const calendars = createCalendarService(repos, opts.secrets, now, {
    outbound: opts.net.for("calendars"),
    limits: opts.config.calendars,
    jobs: opts.jobs,
  });
  const voicePrints = createVoicePrints({ repos, now });
  const notes = createNoteService(repos, now, {
    vocabulary: createVocabularyOffers(aiSettings),
    voicePrints,
    calendarEvent: (p, id) => calendars.forNote(p, id),
    lifecycle: opts.lifecycle,
    jobs: opts.jobs,
    publicUrl: opts.publicUrl,
    // At once where the store allows; the queued job (retried) makes sure of it.
    deleteRecording: (key) => opts.audioStore.delete(key).catch(() => {}),
    templates,
    access,
  });
  const aiConfig = createAiConfigService(
    repos,
    aiSettings,
    opts.secrets,
    { ...opts.ai, embedder: opts.embedder, net: opts.net },
    now,
  );
  const engineWait = createEngineWait({ repos, lifecycle: opts.lifecycle, ai: aiConfig, jobs: opts.jobs });
  // A change of engines tries the recordings waiting for one again.
  aiConfig.onChange((workspaceId) => engineWait.resume(workspaceId));
  const speechSetup = createSpeechSetup({
    dataDir: opts.ai.dataDir,
    modelsUrl: opts.ai.transcription.modelsUrl,
    ai: aiConfig,
    logger: opts.logger ?? silentLogger(),
    workspaceLocalModels: opts.ai.workspaceLocalModels,
  });
  const search = createSearchService(repos, opts.embedder, access, opts.publicUrl);
  const speakerSetup = createSpeakerSetup({
    dataDir: opts.ai.dataDir,
    modelsUrl: opts.ai.transcription.modelsUrl,
    ai: aiConfig,
    logger: opts.logger ?? silentLogger(),
    workspaceLocalModels: opts.ai.workspaceLocalModels,
  });
  const llmSetup = createLlmSetup({
    dataDir: opts.ai.dataDir,
    modelsUrl: opts.ai.transcription.modelsUrl,
    ai: aiConfig,
    logger: opts.logger ?? silentLogger(),
    workspaceLocalModels: opts.ai.workspaceLocalModels,
  });
  return {
    access,
    apiKeys,
    workspaces,
    notes,
    calendars,
    uploads: createUploadService({
      repos,
      store: opts.audioStore,
      secrets: opts.secrets,
      notes,
      now,
      maxUploadBytes: opts.config.maxUploadBytes,
      publicUrl: opts.publicUrl,
    }),
    recordings: createRecordingService({
      repos,
      store: opts.audioStore,
      notes,
      lifecycle: opts.lifecycle,
      access,
      now,
      maxUploadBytes: opts.config.maxUploadBytes,
      jobs: opts.jobs,
      ongoingEvent: (p) => calendars.ongoing(p),
      limits: { quietMs: opts.config.limits.recordingQuietSec * 1000 },
    }),
    folders,
    archive: createWorkspaceArchive({
      notes,
      folders,
      workspaces,
      store: opts.audioStore,
      now,
      logger: opts.logger ?? silentLogger(),
    }),
    directory: createDirectoryService(repos, now, access, voicePrints),
    voicePrints,
    invites: createInviteService(repos, now, access, (input) => accounts.passwordMatches(input), {
      outbox,
      publicUrl: opts.publicUrl,
    }),
    passwordReset: createPasswordReset({
      repos,
      now,
      counters: opts.counters,
      outbox,
      accountRoute: (userId) => mail.accountRoute(userId),
      publicUrl: opts.publicUrl,
      issueLink: (userId, purpose) => accounts.issueLink(userId, purpose),
      logger: opts.logger ?? silentLogger(),
    }),
    series: createNoteSeries({ repos, access }),
    notifications: createNotifications({
      repos,
      outbox,
      secrets: opts.secrets,
      publicUrl: opts.publicUrl,
    }),
    people: createPeopleSuggestions({ repos, now }),
    recap: createNoteRecap({
      repos,
      access,
      counters: opts.counters,
      now,
      outbox,
      publicUrl: opts.publicUrl,
      noteFor: (p, id) => notes.withFacts(p, id),
    }),
    /** The workspace's way out for mail: its own SMTP server, the server's, or none. */
    mail,
    webhooks: createWebhookService(repos, opts.secrets, now, {
      outbound: opts.net.for("webhooks"),
      jobs: opts.jobs,
    }),
    knowledge: createKnowledgeService(repos, now, opts.jobs),
    search,
    ask: createAskService({
      repos,
      search,
      access,
      answerer: async (workspaceId) => (await aiConfig.engines(workspaceId)).answerer(),
      leases: concurrencyLimiter(opts.counters, now),
      limits: opts.config.limits,
      now,
      publicUrl: opts.publicUrl,
    }),
    templates,
    actionItems: createActionItemService({ repos, access, now }),
    aiConfig,
    engineWait,
    speechSetup,
    speakerSetup,
    llmSetup,
    oauth,
    accounts,
    /** Every request limit, over the counter store: per key, per address, client registrations; where replicas share the counts, a busy key counts ahead (prepaid-window.ts). */
    limits: opts.counters.shared
      ? prepaidWindow(slidingWindow(opts.counters, now), now)
      : slidingWindow(opts.counters, now),
    cliGrants: createCliGrants(pending, apiKeys),
    pending,
    mcpSessions: createMcpSessions(repos, now),
    idempotency: createIdempotency(repos, now),
    authentication: createAuthentication(apiKeys, oauth),
    /** The runtime's one clock: what pages say "today" by. */
    now,
  };
}

export type Services = ReturnType<typeof createServices>;
