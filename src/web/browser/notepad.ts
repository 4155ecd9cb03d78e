// The notepad beside a live transcript: a person's notes, saved as they type. Every
// change is kept in this browser first (localStorage, by note), so a network cut or a
// closed tab loses nothing: what was not saved is sent when the connection returns, or
// when any page of notula opens again. A save names the version of the notes it was
// typed on; when another tab or person changed them meanwhile, the lines of both are
// kept (merged here) and saved again, and the page says so. A line begun while the
// meeting is recorded starts with the recording's time, which links it to that moment.
import { csrf } from "./dom.js";
import { textVersion } from "../../shared/text-version.js";
import { mergeLines } from "../../shared/merge-lines.js";

/** What this browser holds of a note's notes. */
interface Kept {
  text: string;
  /** The server's notes this text was typed on, and their version. */
  baseText: string;
  base: string;
  /** Typed here and not yet saved. */
  dirty: boolean;
}

const KEY = "notula-notes:";
const keptOf = (noteId: string): Kept | null => {
  try {
    return JSON.parse(localStorage.getItem(KEY + noteId) ?? "null") as Kept | null;
  } catch {
    return null;
  }
};
const keep = (noteId: string, k: Kept) => {
  try {
    localStorage.setItem(KEY + noteId, JSON.stringify(k));
  } catch {}
};

type Sent = { ok: true; merged: boolean } | { ok: false; offline: boolean; message?: string };

/** Sends what is kept of a note's notes, merging with the server's when they moved on. */
async function send(noteId: string): Promise<Sent> {
  let merged = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    const k = keptOf(noteId);
    if (!k?.dirty) return { ok: true, merged };
    let r: Response;
    try {
      r = await fetch("/notes/" + encodeURIComponent(noteId) + "/own-notes", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrf() },
        body: JSON.stringify({ text: k.text, base: k.base }),
      });
    } catch {
      return { ok: false, offline: true };
    }
    const data = await r.json().catch(() => ({}));
    const now = keptOf(noteId) ?? k;
    if (r.ok) {
      // Typed on meanwhile: still to save, on the version just written.
      keep(noteId, { text: now.text, baseText: k.text, base: data.version, dirty: now.text !== k.text });
      if (now.text === k.text) return { ok: true, merged };
      continue;
    }
    if (r.status === 409 && typeof data.current === "string") {
      const text = mergeLines(now.baseText, now.text, data.current);
      keep(noteId, { text, baseText: data.current, base: data.version, dirty: text !== data.current });
      merged = true;
      continue;
    }
    if (r.status >= 500) return { ok: false, offline: true };
    // Refused for good (the note is gone, or not this person's to write): kept here no longer.
    localStorage.removeItem(KEY + noteId);
    return { ok: false, offline: false, message: data.error?.message ?? "Your notes could not be saved." };
  }
  return { ok: true, merged };
}

/** Notes an earlier page left unsaved (a closed tab, a lost connection): sent now. */
export async function sendKeptNotes(): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(KEY)) ids.push(key.slice(KEY.length));
  }
  for (const id of ids) {
    const k = keptOf(id);
    if (k && !k.dirty) localStorage.removeItem(KEY + id);
    else if (k) await send(id);
  }
}

export interface Notepad {
  /** The note now exists: what was typed before goes to it. */
  started(noteId: string): void;
  /**
   * The note's notes as the page was given them (at `version`): what this browser kept
   * unsaved for it (a tab closed, a page reloaded) comes back into the field and is saved.
   */
  resume(noteId: string, version: string): void;
  /** The server's notes, as a poll read them: taken when nothing here is unsaved. */
  seen(text: string, version: string): void;
  /** Saves now; settles once saved, or once it cannot be. */
  flush(): Promise<void>;
}

export function attachNotepad(
  area: HTMLTextAreaElement,
  opts: {
    /** The recording's time now (MM:SS), or null when none runs: a new line starts with it. */
    stamp: () => string | null;
    status: (message: string) => void;
  },
): Notepad {
  let noteId: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> | null = null;

  area.addEventListener("keydown", (e) => {
    if (e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    const at = opts.stamp();
    if (!at) return;
    const { selectionStart: s, value: v } = area;
    const start = v.lastIndexOf("\n", s - 1) + 1;
    const end = v.indexOf("\n", s) === -1 ? v.length : v.indexOf("\n", s);
    if (v.slice(start, end).trim()) return;
    area.setRangeText(`[${at}] `, s, s, "end");
  });

  const save = async () => {
    if (!noteId) return;
    const id = noteId;
    const r = await send(id);
    const k = keptOf(id);
    if (r.ok) {
      // Another tab's lines came in: shown, with the caret where it was from the end.
      if (r.merged && k && area.value !== k.text) {
        const fromEnd = area.value.length - area.selectionEnd;
        area.value = k.text;
        area.selectionStart = area.selectionEnd = Math.max(0, k.text.length - fromEnd);
      }
      opts.status(r.merged ? "Saved, with the lines written meanwhile in another tab." : "Saved.");
      if (k?.dirty) schedule();
      return;
    }
    const failed = r as Extract<Sent, { ok: false }>;
    if (failed.offline) {
      opts.status("Not saved yet: no connection. Kept in this browser, and saved when it returns.");
      schedule(3000);
    } else opts.status(failed.message ?? "Not saved.");
  };
  const schedule = (ms = 1000) => {
    clearTimeout(timer);
    timer = setTimeout((): void => {
      saving ??= save().finally(() => (saving = null));
    }, ms);
  };

  area.addEventListener("input", () => {
    if (!noteId) return;
    const k = keptOf(noteId) ?? { text: "", baseText: "", base: textVersion(""), dirty: false };
    keep(noteId, { ...k, text: area.value, dirty: true });
    opts.status("Saving…");
    schedule();
  });

  return {
    started(id) {
      noteId = id;
      keep(id, { text: area.value, baseText: "", base: textVersion(""), dirty: area.value !== "" });
      if (area.value) schedule(0);
    },
    resume(id, version) {
      noteId = id;
      const k = keptOf(id);
      if (k?.dirty) {
        area.value = k.text;
        schedule(0);
      } else keep(id, { text: area.value, baseText: area.value, base: version, dirty: false });
    },
    seen(text, version) {
      if (!noteId) return;
      const k = keptOf(noteId);
      if (k?.dirty || k?.base === version) return;
      keep(noteId, { text, baseText: text, base: version, dirty: false });
      if (area.value !== text) area.value = text;
    },
    async flush() {
      clearTimeout(timer);
      await saving;
      await save();
    },
  };
}
