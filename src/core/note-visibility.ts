// Who may see a note, declared once. The rule is data: a list of conditions that must
// all hold, over a note's facts and the viewer's. The access policy evaluates it in
// process (notePolicy.see, core/access.ts), and the stores compile the same list to SQL
// (db/stores/note-rules.ts), so every read, list, search, share link and webhook payload
// applies one rule, and the two forms cannot drift apart: test/core/note-visibility.test.ts
// checks them against each other on generated notes and viewers, on both databases.

/** What a note offers the rule. */
export interface VisibilityNote {
  workspaceId: string;
  createdBy: string;
  visibility: string;
  folderIds: readonly string[];
}

/** What a viewer offers it: a member of a workspace (or, for a share link, nobody in particular). */
export interface VisibilityViewer {
  workspaceId: string;
  userId: string;
  /** The workspace's private folders this viewer is not a member of. */
  hiddenFolderIds: ReadonlySet<string>;
}

export type NoteField = "workspaceId" | "createdBy" | "visibility";
export type ViewerField = "workspaceId" | "userId";

/** One condition of the rule. */
export type Condition =
  /** The note's field equals the viewer's. */
  | { kind: "same"; note: NoteField; viewer: ViewerField }
  /** The note's field is (or, with `not`, is not) this value. */
  | { kind: "is"; note: NoteField; value: string; not?: boolean }
  /** Any of the conditions holds. */
  | { kind: "any"; of: Condition[] }
  /** The note is filed in none of the folders hidden from the viewer. */
  | { kind: "not-in-hidden-folder" };

/** A member's view of a note: all of these hold. */
export const MEMBER_SEES: readonly Condition[] = [
  // Everyone's reach ends at their workspace.
  { kind: "same", note: "workspaceId", viewer: "workspaceId" },
  // An only-me note is its creator's alone.
  {
    kind: "any",
    of: [
      { kind: "is", note: "visibility", value: "only-me", not: true },
      { kind: "same", note: "createdBy", viewer: "userId" },
    ],
  },
  // A private folder, and every note filed in it, exists only for its members (admins included).
  { kind: "not-in-hidden-folder" },
];

/** Anyone holding a note's share link sees it while, and only while, it is public. */
export const LINK_SEES: readonly Condition[] = [{ kind: "is", note: "visibility", value: "public" }];

function holds(c: Condition, n: VisibilityNote, v: VisibilityViewer | null): boolean {
  switch (c.kind) {
    case "same":
      return v !== null && n[c.note] === v[c.viewer];
    case "is":
      return (n[c.note] === c.value) !== Boolean(c.not);
    case "any":
      return c.of.some((x) => holds(x, n, v));
    case "not-in-hidden-folder":
      return v === null || !n.folderIds.some((f) => v.hiddenFolderIds.has(f));
  }
}

/** Whether every condition of a rule holds for this note and viewer (null: a share link's holder). */
export const allHold = (rule: readonly Condition[], n: VisibilityNote, v: VisibilityViewer | null): boolean =>
  rule.every((c) => holds(c, n, v));
