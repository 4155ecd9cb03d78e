// The Share panel by a note's title: who can read it now, its link with Copy, and what
// the link shows. Those who may widen who sees it (its creator, admins) make it public
// or stop sharing here; everyone else sees who can read it and the link, if there is one.
import { html } from "hono/html";
import type { NoteDto } from "../../shared/schemas/notes.js";
import type { Viewer } from "../context.js";
import { publicWarning, visibilityWords } from "../visibility.js";

export function SharePanel(props: {
  viewer: Viewer;
  note: NoteDto;
  mayWiden: boolean;
  privateFolders: string[];
  /** Whether the share page shows the transcript; null when the note has no share link. */
  shareTranscript: boolean | null;
  /** Whether it plays the recording, and whether there is one to play. */
  shareRecording: boolean | null;
  hasAudio: boolean;
}) {
  const { note, viewer } = props;
  const id = encodeURIComponent(note.id);
  const csrf = html`<input type="hidden" name="csrf" value="${viewer.csrf}" />`;
  const link = note.shareUrl
    ? html`<p><span class="secret"><code id="share-panel-url">${note.shareUrl}</code><button type="button" class="secondary" data-copy="share-panel-url">Copy</button></span></p>`
    : "";
  const who = html`<p>${visibilityWords(note.visibility, props.privateFolders)}.</p>`;
  let actions: unknown = "";
  if (props.mayWiden && note.visibility === "public")
    actions = html`<form method="post" action="/notes/${id}/share" class="actions">${csrf}<input type="hidden" name="action" value="options" /><label class="check"><input type="checkbox" name="shareTranscript" value="1" ${props.shareTranscript ? "checked" : ""} /> The link shows the transcript</label>${props.hasAudio ? html`<label class="check"><input type="checkbox" name="shareRecording" value="1" ${props.shareRecording ? "checked" : ""} /> The link plays the recording</label>` : ""}<button type="submit" class="secondary">Save</button></form><form method="post" action="/notes/${id}/share" class="actions">${csrf}<input type="hidden" name="action" value="stop" /><button type="submit" class="secondary">Stop sharing</button> <span class="small muted">The link stops working; everyone in the workspace can still read the note.</span></form>`;
  else if (props.mayWiden)
    actions = html`<form method="post" action="/notes/${id}/share" class="actions">${csrf}<input type="hidden" name="action" value="public" />${
      props.privateFolders.length
        ? html`<p class="warning small">${publicWarning(props.privateFolders)}</p><label class="check"><input type="checkbox" name="confirmPublic" value="1" required /> Make it public anyway</label>`
        : ""
    }<button type="submit">Get a link anyone can open</button></form>`;
  else if (note.visibility !== "public")
    actions = html`<p class="small muted">Only the note's creator or an admin can make a link for it.</p>`;
  return html`<details class="share-panel" id="share"><summary class="button secondary">Share</summary><div class="panel"><h2>Who can read it</h2>${who}${link}${actions}</div></details>`;
}
