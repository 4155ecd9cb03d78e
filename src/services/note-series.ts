// Notes of the same recurring meeting, linked: the one before and the one after a
// note, among those the viewer may see (the access policy decides, on each note's
// facts, as it does for a single note).
import type { Repositories } from "../db/repos/index.js";
import type { Principal } from "../core/principal.js";
import { notePolicy, noteView } from "../core/access.js";
import type { Access } from "./access.js";

/** A weekly meeting over some years: more notes than this in one series are not looked through. */
const MOST = 500;

export interface SeriesLink {
  id: string;
  title: string;
  createdAt: number;
}

export function createNoteSeries(d: { repos: Repositories; access: Access }) {
  return {
    /** The previous and next note of the meeting series a note belongs to; null when it belongs to none. */
    async neighbours(
      p: Principal,
      id: string,
    ): Promise<{ previous: SeriesLink | null; next: SeriesLink | null } | null> {
      const actor = await d.access.actor(p);
      const row = await d.repos.notes.get(noteView(actor), id);
      if (!row?.calendarSeries) return null;
      const all = await d.repos.noteSeries.of(p.workspaceId, row.calendarSeries, MOST);
      const folders = await d.repos.notes.foldersOf(all.map((n) => n.id));
      const seen = all.filter(
        (n) => n.id === id || notePolicy.see(actor, { ...n, folderIds: (folders.get(n.id) ?? []).map((f) => f.id) }),
      );
      const at = seen.findIndex((n) => n.id === id);
      const link = (n: (typeof seen)[number] | undefined) =>
        n ? { id: n.id, title: n.title, createdAt: n.createdAt } : null;
      return { previous: link(seen[at - 1]), next: link(seen[at + 1]) };
    },
  };
}
