// The import page: many files dropped at once (or chosen), each made into a note: other
// tools' transcripts (WebVTT, SRT, Otter's text), markdown notes, and a recording with
// its transcript of the same name. Then what became of each, with a link to its note.
import { Alert, Csrf, Layout } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatBytes } from "../format.js";
import type { Outcome } from "../../pipeline/import-files.js";

export function ImportPage(props: {
  viewer: Viewer;
  folders: { id: string; name: string }[];
  maxBytes: number;
  extensions: string[];
  error?: string;
  outcomes?: Outcome[];
}) {
  return (
    <Layout title="Import" viewer={props.viewer} section="new">
      <h1>Import meetings</h1>
      <Alert error={props.error} />
      {props.outcomes ? <Outcomes outcomes={props.outcomes} /> : null}
      <form
        id="import"
        class="panel"
        method="post"
        action="/notes/import"
        enctype="multipart/form-data"
        data-max-bytes={props.maxBytes}
      >
        <Csrf viewer={props.viewer} />
        <p>
          Transcripts from other tools (WebVTT and SRT from Zoom, Teams or Meet; Otter's text export), markdown notes
          with front matter, and a recording beside its transcript of the same name (standup.m4a with standup.vtt). Each
          becomes a note with its date, speakers and timings; a file imported before is skipped.
        </p>
        <label id="import-drop" class="dropzone" for="import-files">
          <span>Drop files here, or choose them</span>
          <input
            id="import-files"
            name="files"
            type="file"
            multiple
            required
            accept={[".vtt", ".srt", ".txt", ".md", ".markdown", ...props.extensions.map((e) => `.${e}`)].join(",")}
          />
        </label>
        <ul id="import-chosen" class="small muted"></ul>
        {props.folders.length ? (
          <>
            <label for="import-folder">Folder</label>
            <select id="import-folder" name="folderId">
              <option value="">None</option>
              {props.folders.map((x) => (
                <option value={x.id}>{x.name}</option>
              ))}
            </select>
          </>
        ) : null}
        <p class="small muted">
          Up to {formatBytes(props.maxBytes)} at once; a larger batch or recording goes through{" "}
          <code>notula import</code> or a watched folder.
        </p>
        <div class="actions">
          <button type="submit">Import</button>
        </div>
      </form>
    </Layout>
  );
}

const SAID = { imported: "Made", skipped: "Imported before", failed: "Not imported" } as const;

function Outcomes(props: { outcomes: Outcome[] }) {
  const count = (s: Outcome["status"]) => props.outcomes.filter((o) => o.status === s).length;
  return (
    <section id="import-outcomes">
      <p role="status">
        Made {count("imported")}, skipped {count("skipped")} imported before, {count("failed")} not imported.
      </p>
      <table>
        <thead>
          <tr>
            <th>File</th>
            <th>Result</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {props.outcomes.map((o) => (
            <tr>
              <td>
                {o.file}
                {o.status === "imported" && o.recording ? ` + ${o.recording}` : ""}
              </td>
              <td>{SAID[o.status]}</td>
              <td>
                {o.status !== "failed" && o.noteId ? (
                  <a href={`/notes/${encodeURIComponent(o.noteId)}`}>Open</a>
                ) : o.status === "failed" ? (
                  o.reason
                ) : (
                  ""
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
