// Joined rows of (owner id, item) as a map from each owner to its items, in row
// order: how a page's members, invites or notes get their groups and folders in one
// query instead of one per row.
export function groupRows<K extends string, R extends Record<K, string>>(
  rows: R[],
  ownerKey: K,
): Map<string, Omit<R, K>[]> {
  const out = new Map<string, Omit<R, K>[]>();
  for (const row of rows) {
    const { [ownerKey]: owner, ...item } = row;
    const list = out.get(owner);
    if (list) list.push(item);
    else out.set(owner, [item]);
  }
  return out;
}
