// The notepad on the page of a note being recorded: whoever may edit the note writes
// beside its transcript as it grows, as the recording panel's notepad does (the same
// script, browser/notepad.ts: saved as they type, kept in the browser through a cut,
// merged with another tab's lines). A line begun meanwhile starts with the recording's
// time, counted from when the recording began.
import { textVersion } from "../../shared/text-version.js";
import { NOTE_TEXT_MAX } from "../../shared/schemas/notes.js";
import type { NoteDto } from "../../shared/schemas/notes.js";

export function NoteNotepad(props: { note: NoteDto }) {
  const { note } = props;
  return (
    <section class="record-notepad" id="note-notepad">
      <h2>Your notes</h2>
      <label for="note-notes">Your notes (Markdown; a line begun now links to this moment of the recording)</label>
      <textarea
        id="note-notes"
        rows={8}
        maxlength={NOTE_TEXT_MAX}
        data-note={note.id}
        data-version={textVersion(note.userWrittenNote)}
        data-started={String(Date.parse(note.createdAt))}
      >
        {note.userWrittenNote}
      </textarea>
      <p id="note-notes-state" class="small muted" role="status"></p>
    </section>
  );
}
