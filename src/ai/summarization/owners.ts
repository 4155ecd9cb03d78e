// Owners of action items, as summaries write them: "- [ ] task (owner: Ana)", several
// as "(owner: Ana, Eli)" or "(owner: Ana and Eli)". A speaker renamed after the summary
// was written is renamed in these marks, and nowhere else in the text: a word that
// happens to equal the old name elsewhere is someone's prose, not a reference.

const OWNER_MARK = /\(owners?:\s*([^()\n]*)\)/gi;
const SEPARATOR = /(\s*,\s*|\s+and\s+|\s*&\s*)/;

/** The markdown with every owner mark naming `from` (exactly, any case) naming `to` instead. */
export function renameOwner(markdown: string, from: string, to: string): string {
  const wanted = from.trim().toLowerCase();
  if (!wanted || !markdown) return markdown;
  return markdown.replace(OWNER_MARK, (mark: string, names: string) => {
    const parts = names.split(SEPARATOR);
    let changed = false;
    const renamed = parts.map((part, i) => {
      if (i % 2 === 1 || part.trim().toLowerCase() !== wanted) return part;
      changed = true;
      return part.replace(part.trim(), to);
    });
    return changed ? mark.replace(names, renamed.join("")) : mark;
  });
}
