// The one access policy: who may see and change what inside a workspace. Pure
// functions over facts (the caller's role and private-folder memberships, a note's
// visibility and folders, a resource's owner); the services ask it before every
// read and write, and the repositories take their list and search filters from
// `noteView`. Scopes are not decided here: they gate whole endpoints before a
// service runs (src/server/middleware/auth.ts, the MCP tools); the role is read
// afresh with every request, so a changed role counts on the next one.
//
// The rules, in words (docs/rest-api.md, "Roles and visibility"):
// - Everyone's reach ends at their workspace; anything of another one is "not found".
// - A private folder, and every note filed in it, exists only for the folder's
//   members. Being an admin does not open it: private means private.
// - A note "only-me" is its creator's alone; "workspace" and "public" notes are the
//   workspace's (public ones also open to anyone holding their share link).
// - Whoever may see a note may edit what it says and file it in folders they see,
//   and tick its action items, which are seen exactly where the note is.
//   Widening who sees it (its visibility, taking it out of a private folder) and
//   deleting it are for its creator and admins.
// - Folders: whoever sees a folder files notes in it; changing the folder itself (its
//   name, place, template, privacy and members) and deleting it are for its owner and
//   admins, since everyone who sees it sees the change.
// - Members, groups, the workspace's settings, its AI configuration and its default
//   template are for admins; invites too, except that a member may invite members.
// - Keys, webhooks, templates and articles: each person manages their own; admins
//   manage everyone's (a key's secret is never shown again, to anyone).
// - Calendars: each person's own, not even admins see another's.
import type { Role, ScopeName } from "./principal.js";
import type { Visibility } from "./note-vocabulary.js";
import { allHold, LINK_SEES, MEMBER_SEES } from "./note-visibility.js";

export type { Role } from "./principal.js";
export type { Visibility } from "./note-vocabulary.js";

/** The caller, as every decision sees them: from the credential, plus their folders. */
export interface Actor {
  workspaceId: string;
  userId: string;
  role: Role;
  /**
   * The workspace's private folders this caller is not a member of: computed once per
   * request; neither the folders nor any note filed in them exist for the caller.
   */
  hiddenFolderIds: ReadonlySet<string>;
}

export interface NoteFacts {
  workspaceId: string;
  createdBy: string;
  visibility: Visibility;
  folderIds: readonly string[];
}

export interface FolderFacts {
  id: string;
  workspaceId: string;
  ownerUserId: string;
  isPrivate: boolean;
}

/** Something a single person owns inside the workspace: a key, webhook, template, article, invite. */
export interface OwnedFacts {
  workspaceId: string;
  /** Null for what was made before owners were recorded: then only admins manage it. */
  ownerUserId: string | null;
}

/** The caller without their folders: enough for decisions that no folder enters (a Principal is one). */
export type Person = Pick<Actor, "workspaceId" | "userId" | "role">;

const sameWorkspace = (a: Person, r: { workspaceId: string }) => a.workspaceId === r.workspaceId;
const isAdmin = (a: Pick<Actor, "role">) => a.role === "admin";
const ownsOrAdmin = (a: Person, owner: string | null) => isAdmin(a) || (owner !== null && owner === a.userId);

/** The scopes a person's key may use: never more than their role allows (users is for admins). */
export function scopesForRole(role: Role): ScopeName[] {
  return role === "admin" ? ["notes", "folders", "users", "templates"] : ["notes", "folders", "templates"];
}

/** The filter every note query applies: the repositories turn it into SQL, nothing else decides. */
export interface NoteView {
  workspaceId: string;
  viewerUserId: string;
  /** Notes filed in any of these are out of sight (sorted, for stable prepared statements). */
  hiddenFolderIds: string[];
}

export function noteView(a: Actor): NoteView {
  return { workspaceId: a.workspaceId, viewerUserId: a.userId, hiddenFolderIds: [...a.hiddenFolderIds].sort() };
}

export const notePolicy = {
  /** Who may see a note: the one rule (core/note-visibility.ts), which the stores apply as SQL too. */
  see(a: Actor, n: NoteFacts): boolean {
    return allHold(MEMBER_SEES, n, a);
  },
  /**
   * Whether what a note teaches the workspace (a voice's name, offered on other notes)
   * may be learned: only when every member sees the note, so that an offered name tells
   * nobody what they could not read. `privateFolderIds`: all the workspace's private folders.
   */
  teach(n: NoteFacts, privateFolderIds: ReadonlySet<string>): boolean {
    return allHold(MEMBER_SEES, n, { workspaceId: n.workspaceId, userId: "", hiddenFolderIds: privateFolderIds });
  },
  /** What a share link's holder may see: the note while it is public. */
  seeByLink(n: Pick<NoteFacts, "visibility">): boolean {
    return allHold(LINK_SEES, { workspaceId: "", createdBy: "", folderIds: [], ...n }, null);
  },
  /** Title, the user's notes, speakers, processing again, enhancing, filing in visible folders. */
  edit(a: Actor, n: NoteFacts): boolean {
    return notePolicy.see(a, n);
  },
  /** Its visibility and share link, and taking it out of a private folder: who may widen its audience. */
  widen(a: Actor, n: NoteFacts): boolean {
    return notePolicy.see(a, n) && ownsOrAdmin(a, n.createdBy);
  },
  delete(a: Actor, n: NoteFacts): boolean {
    return notePolicy.see(a, n) && ownsOrAdmin(a, n.createdBy);
  },
  /**
   * A live recording's audio, and stopping it: the person recording alone (whoever
   * else sees the note sees it grow; the server stops a recording nobody feeds).
   */
  record(a: Actor, n: NoteFacts): boolean {
    return notePolicy.see(a, n) && n.createdBy === a.userId;
  },
  /**
   * Emailing its recap to the meeting's participants: the person who made the note
   * (it goes out in their name), not an admin on their behalf.
   */
  emailRecap(a: Actor, n: NoteFacts): boolean {
    return notePolicy.see(a, n) && n.createdBy === a.userId;
  },
};

/**
 * A note's action items are seen exactly where the note is; ticking one, giving it to
 * someone and setting its day are editing the note (whoever may edit it: its owner
 * among them, when they see the note).
 */
export const actionItemPolicy = {
  see(a: Actor, n: NoteFacts): boolean {
    return notePolicy.see(a, n);
  },
  change(a: Actor, n: NoteFacts): boolean {
    return notePolicy.edit(a, n);
  },
};

export const folderPolicy = {
  see(a: Actor, f: FolderFacts): boolean {
    return sameWorkspace(a, f) && !a.hiddenFolderIds.has(f.id);
  },
  /** Create a folder owned by `ownerUserId`: one's own, or anyone's for an admin. */
  create(a: Person, ownerUserId: string): boolean {
    return isAdmin(a) || ownerUserId === a.userId;
  },
  /** Filing notes in it (and taking them out): whoever sees it. */
  file(a: Actor, f: FolderFacts): boolean {
    return folderPolicy.see(a, f);
  },
  /**
   * Everything about the folder itself (its name, icon, colour, parent and template;
   * private or shared, who its members are, its owner; deleting it): what everyone who
   * sees it sees changes, so its owner and admins decide.
   */
  manage(a: Actor, f: FolderFacts): boolean {
    return folderPolicy.see(a, f) && ownsOrAdmin(a, f.ownerUserId);
  },
};

export const workspacePolicy = {
  /** A copy of the workspace (every note its holder may read, with recordings, and the folders), to move servers. */
  archive(a: Person): boolean {
    return isAdmin(a);
  },
  /** The workspace's name, domains and defaults; members' roles and groups; removing members; user groups. */
  manage(a: Person): boolean {
    return isAdmin(a);
  },
  /** Where recordings and notes are sent for processing, and the default template. */
  configureAi(a: Person): boolean {
    return isAdmin(a);
  },
  /**
   * This server's local models for the workspace: setting them up (downloads to the
   * server's disk) and choosing them (its CPU). Its admins, where the operator lets
   * workspaces (--no-workspace-local-models keeps them to the operator).
   */
  useServerModels(a: Person, server: { workspaceLocalModels: boolean }): boolean {
    return isAdmin(a) && server.workspaceLocalModels;
  },
  /** The workspace's own mail server and sender (which carries a password, and speaks for everyone). */
  configureMail(a: Person): boolean {
    return isAdmin(a);
  },
};

/**
 * The visibility a new note gets when its creator names none: the workspace's setting
 * (`meetingDefaultPermission`), "only-me" or the workspace's.
 */
export function defaultVisibility(settings: Record<string, unknown>): "only-me" | "workspace" {
  return settings.meetingDefaultPermission === "only-me" ? "only-me" : "workspace";
}

export const invitePolicy = {
  /** Admins invite anyone as anything; a member may invite members (never an admin). */
  create(a: Person, role: Role): boolean {
    return isAdmin(a) || role === "member";
  },
  /** See the invite (and so its link) and revoke it: its sender, or an admin. */
  manage(a: Person, invite: OwnedFacts): boolean {
    return sameWorkspace(a, invite) && ownsOrAdmin(a, invite.ownerUserId);
  },
};

/** Webhooks, templates, knowledge articles: each person's own, and every one for admins. */
export const ownedPolicy = {
  manage(a: Person, r: OwnedFacts): boolean {
    return sameWorkspace(a, r) && ownsOrAdmin(a, r.ownerUserId);
  },
};

/**
 * Calendars and their meetings: their owner's alone. An admin does not read someone's
 * calendar (it holds meetings that are none of the workspace's business); another
 * person sees an event only as it is copied onto a note they may see.
 */
export const calendarPolicy = {
  manage(a: Person, c: OwnedFacts): boolean {
    return sameWorkspace(a, c) && a.userId === c.ownerUserId;
  },
};
