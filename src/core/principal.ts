// Who is calling, resolved once per request (API key, OAuth token or web session)
// and handed to every service call.

/** The API-key scopes of the interface: what a credential may touch. */
export const SCOPES = ["notes", "folders", "users", "templates"] as const;
export type ScopeName = (typeof SCOPES)[number];

export const PLANS = ["free", "pro", "enterprise"] as const;
export type PlanName = (typeof PLANS)[number];

export const ROLES = ["admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  workspaceId: string;
  userId: string;
  keyId: string;
  scopes: ReadonlySet<ScopeName>;
  plan: PlanName;
  /** The holder's role in the workspace, as it is now (read with every request). */
  role: Role;
  /**
   * The workspace's private folders the holder is outside of, where they were read
   * with the credential (in the same statement); otherwise the access facts read them.
   */
  hiddenFolders?: readonly string[];
  /**
   * The visibility the workspace gives a new note whose creator names none, where it
   * was read with the credential (in the same statement); otherwise the workspace is read.
   */
  newNoteVisibility?: "only-me" | "workspace";
}
