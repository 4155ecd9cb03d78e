// The page of a note being recorded, with its notepad (pages/note-notepad.tsx): the
// notes are saved as they are typed, and the transcript beside them grows in place
// (the page's part swapped in, never the page reloaded under the person typing).
// Once the recording stops, the notes are saved and the page is loaded again.
import { $, clock } from "./dom.js";
import { attachNotepad } from "./notepad.js";

const area = $<HTMLTextAreaElement>("#note-notes");
if (area) {
  const noteId = area.dataset.note!;
  const started = Number(area.dataset.started);
  const notepad = attachNotepad(area, {
    stamp: () => clock(Math.max(0, (Date.now() - started) / 1000)),
    status: (m) => ($("#note-notes-state")!.textContent = m),
  });
  notepad.resume(noteId, area.dataset.version!);
  let lines = -1;
  const tick = async () => {
    try {
      const r = await fetch(`/notes/${encodeURIComponent(noteId)}/live`, { headers: { accept: "application/json" } });
      if (r.ok) {
        const live = (await r.json()) as { status: string; notes: string; notesVersion: string; transcript: unknown[] };
        if (live.status !== "recording") {
          await notepad.flush();
          return location.reload();
        }
        notepad.seen(live.notes, live.notesVersion);
        if (lines !== -1 && live.transcript.length !== lines) {
          const page = new DOMParser().parseFromString(await (await fetch(location.href)).text(), "text/html");
          const fresh = page.getElementById("live-transcript");
          if (fresh) $("#live-transcript")!.replaceChildren(...fresh.childNodes);
        }
        lines = live.transcript.length;
      }
    } catch {}
    setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
}
