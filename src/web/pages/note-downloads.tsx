// A note's Download menu: its text in each export format (subtitles where it has a
// transcript), and its recording where there is one to play.
import { EXPORT_FORMATS, EXPORTS } from "../../shared/export/index.js";
import type { NoteDto } from "../../shared/schemas/notes.js";

export function downloads(note: NoteDto, recording: boolean) {
  const formats = EXPORT_FORMATS.filter((f) => note.transcripts.length || (f !== "vtt" && f !== "srt"));
  return (
    <details class="downloads" id="downloads">
      <summary>Download</summary>
      <ul>
        {formats.map((f) => (
          <li>
            <a href={`/notes/${encodeURIComponent(note.id)}/export?format=${f}`} download>
              {EXPORTS[f].label}
            </a>
          </li>
        ))}
        {recording ? (
          <li>
            <a href={`/notes/${encodeURIComponent(note.id)}/audio`} download id="download-audio">
              The recording
            </a>
          </li>
        ) : null}
      </ul>
    </details>
  );
}
