import { AsyncLocalStorage } from "node:async_hooks";
import { sqliteDialect, sqliteTables, type Dialect, type Tables, type Transaction } from "./portable.js";
import type { Db } from "../open.js";
import { apiKeyRepo } from "./api-keys.js";
import { folderRepo } from "./folders.js";
import { groupRepo } from "./groups.js";
import { inviteRepo } from "./invites.js";
import { jobRepo } from "./jobs.js";
import { audioUploadRepo } from "./audio-uploads.js";
import { recordingPieceRepo } from "./recording-pieces.js";
import { recordingRepo } from "./recordings.js";
import { knowledgeRepo } from "./knowledge.js";
import { memberRepo } from "./members.js";
import { noteRepo } from "../sqlite/notes.js";
import { oauthRepo } from "./oauth.js";
import { passageRepo } from "../sqlite/passages.js";
import { passageCodes } from "../sqlite/passage-codes.js";
import { passageIndexRepo } from "../sqlite/passage-index.js";
import { searchRepo } from "../sqlite/search.js";
import { sessionRepo } from "./sessions.js";
import { shareRepo } from "./shares.js";
import { noteSeriesRepo } from "./note-series.js";
import { sharedStateRepo } from "./shared-state.js";
import { sqliteMcpSessions } from "../sqlite/mcp-sessions.js";
import { idempotencyKeyRepo } from "./idempotency-keys.js";
import { noteVersionRepo } from "./note-versions.js";
import { summaryPartRepo } from "./summary-parts.js";
import { actionItemRepo } from "./action-items.js";
import { maintenanceRepo } from "./maintenance.js";
import { tagRepo } from "./tags.js";
import { templateRepo } from "./templates.js";
import { speakerRepo } from "./speakers.js";
import { voiceRepo } from "./voices.js";
import { userRepo } from "./users.js";
import { webhookRepo } from "./webhooks.js";
import { calendarRepo } from "./calendars.js";
import { mailSettingsRepo } from "./mail-settings.js";
import { askThreadRepo } from "./ask-threads.js";
import { webhookDeliveryRepo } from "./webhook-deliveries.js";
import { workspaceRepo } from "./workspaces.js";
import type { Asynchronous } from "../stores/synchronous.js";
import type { NoteStore } from "../stores/note-store.js";
import type { SearchStore } from "../stores/search-store.js";
import type { PassageStore } from "../stores/passage-store.js";
import type { PassageIndexStore } from "../stores/passage-index-store.js";

/**
 * The repositories written once for both dialects (see portable.ts), over either
 * database: the SQLite one, or PostgreSQL's with its derived tables.
 */
export function portableRepositories(db: Db, t: Tables, transaction: Transaction, dialect: Dialect) {
  return {
    apiKeys: apiKeyRepo(db, t, dialect),
    members: memberRepo(db, t, transaction, dialect),
    folders: folderRepo(db, t, transaction, dialect),
    sessions: sessionRepo(db, t, dialect),
    jobs: jobRepo(db, t, transaction, dialect),
    invites: inviteRepo(db, t, transaction),
    webhookDeliveries: webhookDeliveryRepo(db, t, transaction),
    workspaces: workspaceRepo(db, t),
    users: userRepo(db, t),
    tags: tagRepo(db, t),
    groups: groupRepo(db, t),
    webhooks: webhookRepo(db, t),
    knowledge: knowledgeRepo(db, t),
    oauth: oauthRepo(db, t),
    audioUploads: audioUploadRepo(db, t),
    recordings: recordingRepo(db, t),
    recordingPieces: recordingPieceRepo(db, t),
    shares: shareRepo(db, t),
    noteSeries: noteSeriesRepo(db, t),
    sharedState: sharedStateRepo(db, t),
    idempotencyKeys: idempotencyKeyRepo(db, t),
    actionItems: actionItemRepo(db, t, transaction),
    noteVersions: noteVersionRepo(db, t),
    summaryParts: summaryPartRepo(db, t),
    maintenance: maintenanceRepo(db, t),
    templates: templateRepo(db, t, transaction),
    speakers: speakerRepo(db, t),
    voices: voiceRepo(db, t),
    calendars: calendarRepo(db, t, transaction),
    mailSettings: mailSettingsRepo(db, t),
    askThreads: askThreadRepo(db, t),
  };
}

/** Every repository over SQLite: the portable ones, and those tuned to SQLite (synchronous, prepared). */
function sqliteRepositories(db: Db, transaction: Transaction, opts: RepositoryOptions = {}) {
  const portable = portableRepositories(db, sqliteTables, transaction, sqliteDialect(db.$client));
  return {
    ...portable,
    sharedState: { ...portable.sharedState, ...sqliteMcpSessions(db.$client) },
    notes: noteRepo(db),
    search: searchRepo(db),
    ...(() => {
      // Search and the index build share one connection's code tables and centroid cache.
      const codes = passageCodes(db.$client);
      return {
        passages: passageRepo(db, {}, codes),
        passageIndex: passageIndexRepo(db, { indexAt: opts.vectorIndexAt }, codes),
      };
    })(),
  };
}

export type PortableRepositories = ReturnType<typeof portableRepositories>;

/**
 * Every repository over one database: the only code that speaks SQL. The stores whose
 * SQL differs by dialect are declared by hand (src/db/stores/); the portable ones are
 * one implementation, whose type is what it returns. Every method answers with a
 * promise, so that a database behind a network connection fits as well as the
 * embedded one does.
 */
export type Repositories = { [K in keyof PortableRepositories]: Asynchronous<PortableRepositories[K]> } & {
  notes: NoteStore;
  search: SearchStore;
  passages: PassageStore;
  passageIndex: PassageIndexStore;
  /**
   * Runs `fn` in one transaction: every repository call made inside it (across its
   * awaits) joins the transaction; a nested call joins the outer one.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
};

export interface RepositoryOptions {
  /** Passages of a workspace from which its vectors are partitioned into cells (passage-index.ts). */
  vectorIndexAt?: number;
}

export function createRepositories(db: Db, opts: RepositoryOptions = {}): Repositories {
  const sqlite = db.$client;
  // One connection serves every request, so while a transaction is open (it may await
  // between statements) calls from outside it wait for it to end instead of landing
  // inside it. Inside is known by the async context the transaction runs in.
  // The context holds a flag the transaction clears when it ends: work it started
  // that outlives it (a timer, a queued job) inherits the context but is not inside.
  const inside = new AsyncLocalStorage<{ open: boolean }>();
  const isInside = () => inside.getStore()?.open === true;
  // Whether a transaction holds the connection, and who waits for it, in the order they
  // came: when a transaction ends, the calls that waited run (each is one statement,
  // answered at once), then the next transaction that waited takes the connection. Each
  // waiter is woken once, in turn; waiting on the transaction's end woke every waiter at
  // each end, and all but one waited again, so 50 writes at once cost 50 wake-ups each.
  let open = false;
  const waiting: Array<() => void> = [];

  function release() {
    open = false;
    while (waiting.length && !open) waiting.shift()!();
  }

  function call<T>(fn: () => T): Promise<T> {
    if (open && !isInside())
      return new Promise<T>((resolve, reject) =>
        waiting.push(() => {
          try {
            resolve(fn());
          } catch (e) {
            reject(e);
          }
        }),
      );
    try {
      return Promise.resolve(fn());
    } catch (e) {
      return Promise.reject(e);
    }
  }

  function asyncRepo<R extends object>(repo: R): Asynchronous<R> {
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(repo))
      out[name] = typeof member === "function" ? (...args: unknown[]) => call(() => member(...args)) : member;
    return out as Asynchronous<R>;
  }

  async function transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (isInside()) return fn();
    // Taken at once when free; else handed over, in turn, by the one before.
    if (open) await new Promise<void>((resolve) => waiting.push(() => ((open = true), resolve())));
    else open = true;
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      const context = { open: true };
      try {
        const result = await inside.run(context, fn);
        sqlite.exec("COMMIT");
        return result;
      } finally {
        context.open = false;
      }
    } catch (e) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw e;
    } finally {
      // While a context is in use, Node tracks it through every promise the process
      // makes (async hooks), a cost each request pays. Between transactions nothing
      // needs it: disabling the storage turns that off until the next one runs.
      inside.disable();
      release();
    }
  }

  const sync = sqliteRepositories(db, transaction, opts);
  const lifted = Object.fromEntries(Object.entries(sync).map(([name, repo]) => [name, asyncRepo(repo)])) as {
    [K in keyof typeof sync]: Asynchronous<(typeof sync)[K]>;
  };
  return { ...lifted, transaction };
}
