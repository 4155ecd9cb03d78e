import type { Db } from "../open.js";
import { apiKeyRepo } from "./api-keys.js";
import { folderRepo } from "./folders.js";
import { groupRepo } from "./groups.js";
import { inviteRepo } from "./invites.js";
import { jobRepo } from "./jobs.js";
import { audioUploadRepo } from "./audio-uploads.js";
import { knowledgeRepo } from "./knowledge.js";
import { memberRepo } from "./members.js";
import { noteRepo } from "./notes.js";
import { oauthRepo } from "./oauth.js";
import { passageRepo } from "./passages.js";
import { searchRepo } from "./search.js";
import { sessionRepo } from "./sessions.js";
import { shareRepo } from "./shares.js";
import { tagRepo } from "./tags.js";
import { userRepo } from "./users.js";
import { webhookRepo } from "./webhooks.js";
import { webhookDeliveryRepo } from "./webhook-deliveries.js";
import { workspaceRepo } from "./workspaces.js";

/** Every repository over one database: the only code that speaks SQL. */
export function createRepositories(db: Db) {
  return {
    db,
    workspaces: workspaceRepo(db),
    users: userRepo(db),
    members: memberRepo(db),
    apiKeys: apiKeyRepo(db),
    folders: folderRepo(db),
    tags: tagRepo(db),
    groups: groupRepo(db),
    invites: inviteRepo(db),
    notes: noteRepo(db),
    webhooks: webhookRepo(db),
    webhookDeliveries: webhookDeliveryRepo(db),
    knowledge: knowledgeRepo(db),
    jobs: jobRepo(db),
    search: searchRepo(db),
    passages: passageRepo(db),
    oauth: oauthRepo(db),
    audioUploads: audioUploadRepo(db),
    sessions: sessionRepo(db),
    shares: shareRepo(db),
    /** Runs `fn` in one transaction (repositories called inside join it). */
    transaction<T>(fn: () => T): T {
      return db.$client.transaction(fn)();
    },
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
