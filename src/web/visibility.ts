// Who can read a note, in words: the one place the web app says it. The facts panel,
// the Edit form's choices and the confirmation before a private-folder note goes
// public all read from here, so a note never reads one way in one place and another
// way in the next.
import type { Visibility } from "../core/note-vocabulary.js";

const PLAIN: Record<Visibility, string> = {
  "only-me": "Only me",
  workspace: "Everyone in the workspace",
  public: "Public: anyone with the link, without signing in",
};

const quoted = (names: string[]) => names.map((n) => `“${n}”`);

/** `a`, `a and b`, `a, b and c`. */
export const listed = (items: string[]) =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/**
 * Who can read a note with this visibility, filed in these private folders (by name).
 * A private folder narrows "the workspace" to its members (to those of every one, in
 * several); "Only me" is narrower still, and a public link reaches anyone.
 */
export function visibilityWords(visibility: Visibility, privateFolders: string[]): string {
  if (!privateFolders.length) return PLAIN[visibility];
  const names = quoted(privateFolders);
  const members = names.length === 1 ? `members of ${names[0]}` : `people in every one of ${listed(names)}`;
  if (visibility === "workspace") return `Only ${members}`;
  if (visibility === "public") return `Public: ${members}, and anyone with the link without signing in`;
  return PLAIN[visibility];
}

/** The Edit form's choices, each worded as it would be for this note. */
export const visibilityChoices = (privateFolders: string[]) =>
  (Object.keys(PLAIN) as Visibility[]).map((value) => ({ value, label: visibilityWords(value, privateFolders) }));

/**
 * Whether a change needs the person to confirm it first: a note in a private folder
 * made public leaves the folder's protection behind for anyone holding its link.
 */
export const needsPublicConfirmation = (from: Visibility, to: Visibility, privateFolders: string[]) =>
  to === "public" && from !== "public" && privateFolders.length > 0;

/** What the confirmation says, naming the folders. */
export const publicWarning = (privateFolders: string[]) =>
  `This note is in the private ${privateFolders.length === 1 ? "folder" : "folders"} ${listed(quoted(privateFolders))}. Made public, it can be read by anyone who has its link, without signing in, not only by the folder's members.`;
