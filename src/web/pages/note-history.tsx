// A note's history on its page, for whoever may edit it: each version of what people
// and the machine wrote, newest first, with who and when, what it said, and a button to
// make it the note's again (a restore is an edit, kept here too). Never on a share page.
import type { NoteVersionDto } from "../../shared/schemas/note-history.js";
import { Csrf } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatDate } from "../format.js";
import { toTimestamp } from "../../core/transcript-time.js";

const PART_NAMES: Record<NoteVersionDto["part"], string> = {
  title: "Title",
  userWrittenNote: "Your notes",
  summary: "Summary",
  enhancedNote: "Enhanced note",
  transcriptLine: "Transcript line",
};

function said(v: NoteVersionDto): string {
  if (!v.line) return v.content ?? "";
  const at = toTimestamp(v.line.startSec);
  if (v.line.change === "delete") return `${at} deleted: ${v.line.before.speaker}: ${v.line.before.text}`;
  const after = v.line.after!;
  return `${at} ${v.line.change === "split" ? "split" : "corrected"}: ${v.line.before.speaker}: ${v.line.before.text}\n→ ${after.speaker}: ${after.text}`;
}

export function HistorySection(props: { viewer: Viewer; noteId: string; versions: NoteVersionDto[] }) {
  if (!props.versions.length) return null;
  return (
    <details class="panel" id="history">
      <summary>History ({props.versions.length === 20 ? "the latest 20" : props.versions.length})</summary>
      <ol class="history">
        {props.versions.map((v) => (
          <li>
            <details>
              <summary>
                <strong>{PART_NAMES[v.part]}</strong> {v.byPerson ? "written by" : "written anew by"} {v.writtenBy},{" "}
                {formatDate(v.at, props.viewer.timeZone)}
              </summary>
              <pre class="history-text">{said(v)}</pre>
              {v.restorable ? (
                <form
                  method="post"
                  action={`/notes/${encodeURIComponent(props.noteId)}/history/${encodeURIComponent(v.id)}/restore`}
                >
                  <Csrf viewer={props.viewer} />
                  <button type="submit" class="secondary">
                    {v.line ? "Put the line back as it was" : "Restore this version"}
                  </button>
                </form>
              ) : null}
            </details>
          </li>
        ))}
      </ol>
    </details>
  );
}
