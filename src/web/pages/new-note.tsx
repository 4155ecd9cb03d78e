// The new-note page: record a meeting in the browser, upload a recording, or write a
// note from text; each with who was there (the one datalist of people serves all three).
import { Alert, Csrf, Layout } from "../components/layout.js";
import { SpeechNotice } from "../components/speech-notice.js";
import type { Viewer } from "../context.js";
import { formatBytes } from "../format.js";
import { participantFields, peopleList } from "./note-meeting.js";
import type { PersonSuggestion } from "../../services/people-suggestions.js";

/** A folder to file the new note in, where the workspace has any. */
function FolderSelect(props: { id: string; folders: { id: string; name: string }[] }) {
  if (!props.folders.length) return null;
  return (
    <>
      <label for={props.id}>Folder</label>
      <select id={props.id} name="folderId">
        <option value="">None</option>
        {props.folders.map((x) => (
          <option value={x.id}>{x.name}</option>
        ))}
      </select>
    </>
  );
}

export function NewNotePage(props: {
  viewer: Viewer;
  folders: { id: string; name: string }[];
  extensions: string[];
  maxBytes: number;
  error?: string;
  title?: string;
  text?: string;
  /** The calendar meeting being recorded, from "Coming up". */
  meeting?: { id: string; title: string };
  /** Why recordings cannot be transcribed now (no speech-to-text engine), or null. */
  speechProblem?: string | null;
  /** Offered as one types a participant. */
  people?: PersonSuggestion[];
}) {
  return (
    <Layout title="New note" viewer={props.viewer} section="new">
      <h1>New note</h1>
      <p class="small">
        Meetings from other tools (Zoom, Teams, Meet, Otter transcripts, markdown notes)?{" "}
        <a href="/notes/import">Import them</a>, many files at once.
      </p>
      <Alert error={props.error} />
      <SpeechNotice viewer={props.viewer} problem={props.speechProblem} />
      <section>
        <h2>Record a meeting</h2>
        <noscript>
          <p class="alert error">Recording needs JavaScript. Without it, use `notula record` from a terminal.</p>
        </noscript>
        <form id="record" class="panel">
          <p id="record-unavailable" class="alert error" hidden></p>
          <label for="record-title">Name of the meeting (optional)</label>
          <input id="record-title" name="title" type="text" maxlength={500} value={props.meeting?.title} />
          {props.meeting ? (
            <p class="small muted">
              <input type="hidden" id="record-event" value={props.meeting.id} />
              For the meeting in your calendar: its attendees become the note's participants.
            </p>
          ) : null}
          <FolderSelect id="record-folder" folders={props.folders} />
          <fieldset class="participants">
            <legend>Who is there (optional{props.meeting ? ", besides the calendar's attendees" : ""})</legend>
            {participantFields([], 2)}
          </fieldset>
          <p id="record-details" class="small muted" role="status"></p>
          <label class="check">
            <input id="record-tab" type="checkbox" /> Also record a call in another tab or window (choose it, and share
            its audio)
          </label>
          <div id="recorder" class="recorder" hidden>
            <span id="record-elapsed" class="elapsed">
              00:00:00
            </span>
            <meter id="record-level" min={0} max={1} value={0} aria-label="Sound level"></meter>
          </div>
          <p id="record-state" role="status" class="small"></p>
          <div class="actions">
            <button type="submit" id="record-start">
              Record
            </button>
            <button type="button" id="record-pause" hidden>
              Pause
            </button>
            <button type="button" id="record-stop" hidden>
              Stop
            </button>
          </div>
          {/* Your notes beside the transcript as it grows (on a phone, above it). */}
          <div class="record-live">
            <div class="record-notepad">
              <label for="record-notes">Your notes (Markdown; a line begun while recording links to that moment)</label>
              <textarea
                id="record-notes"
                rows={8}
                maxlength={500000}
                placeholder={"- pricing?\nACTION David cost report Wed"}
              ></textarea>
              <p id="record-notes-state" class="small muted" role="status"></p>
            </div>
            <div>
              <h3 id="record-live-title" hidden>
                Transcript so far
              </h3>
              <ol id="record-transcript" class="transcript live" aria-live="polite"></ol>
            </div>
          </div>
        </form>
      </section>
      <section>
        <h2>From a recording</h2>
        <noscript>
          <p class="alert error">
            Uploading from this page needs JavaScript (it sends the file straight to storage, with progress). Without
            it, use `notula upload FILE` from a terminal.
          </p>
        </noscript>
        <form id="upload" class="panel" method="post" action="/notes/new" enctype="multipart/form-data">
          <div class="dropzone">
            <label for="recording">
              Recording ({props.extensions.join(", ")}; up to {formatBytes(props.maxBytes)})
            </label>
            <input
              id="recording"
              name="recording"
              type="file"
              accept={props.extensions.map((e) => `.${e}`).join(",")}
              required
            />
            <p class="small muted">or drop the file here</p>
          </div>
          <label for="upload-title">Title (optional)</label>
          <input id="upload-title" name="title" type="text" maxlength={500} placeholder="from what was said" />
          <FolderSelect id="upload-folder" folders={props.folders} />
          <label class="check">
            <input id="upload-sides" type="checkbox" /> Its two channels are me (the first) and the others on the call:
            tell who said what
          </label>
          <fieldset class="participants">
            <legend>Who was there (optional)</legend>
            {participantFields([], 2)}
          </fieldset>
          <progress value="0" max="1" aria-label="Upload progress" hidden></progress>
          <p id="upload-status" role="status" class="small"></p>
          <div class="actions">
            <button type="submit">Upload and transcribe</button>
          </div>
        </form>
      </section>
      <section>
        <h2>From text</h2>
        <form method="post" action="/notes/new-text" class="panel">
          <Csrf viewer={props.viewer} />
          <label for="text-title">Title</label>
          <input id="text-title" name="title" type="text" required maxlength={500} value={props.title ?? ""} />
          <label for="text-note">Your notes (Markdown)</label>
          <textarea id="text-note" name="userWrittenNote" maxlength={500000}>
            {props.text ?? ""}
          </textarea>
          <fieldset class="participants">
            <legend>Who was there (optional)</legend>
            {participantFields([], 3)}
            {peopleList(props.people ?? [])}
          </fieldset>
          <div class="actions">
            <button type="submit">Create note</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
