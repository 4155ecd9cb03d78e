// Two versions of a person's notes typed apart (two tabs, a cut connection) made one,
// by their lines: the notepad's merge when a save finds the notes moved on.

/**
 * Their notes, with the lines added here since the base after them: nothing either side
 * wrote is lost (a line deleted here that they still have stays).
 */
export function mergeLines(base: string, mine: string, theirs: string): string {
  if (mine === base || mine === theirs) return theirs;
  if (theirs === base) return mine;
  const before = new Set(base.split("\n"));
  const there = new Set(theirs.split("\n"));
  const added = mine.split("\n").filter((l) => l.trim() && !before.has(l) && !there.has(l));
  return added.length ? `${theirs.replace(/\n+$/, "")}\n${added.join("\n")}` : theirs;
}
