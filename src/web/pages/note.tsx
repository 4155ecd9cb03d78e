import { html, raw } from "hono/html";
import { askBox } from "./ask.js";
import { workspacePolicy } from "../../core/access.js";
import type { NoteDto } from "../../shared/schemas/notes.js";

/** What the viewer may do with a note, as the access policy decides. */
export interface NoteAbilities {
  edit: boolean;
  widen: boolean;
  delete: boolean;
  emailRecap: boolean;
}
import { Alert, Csrf, Layout } from "../components/layout.js";
import { SpeechNotice } from "../components/speech-notice.js";
import type { Viewer } from "../context.js";
import { FINAL_STATUSES, formatDate, formatDuration, seconds, statusLabel } from "../format.js";
import { renderMarkdown, type TaskControl } from "../../shared/markdown.js";
import { taskKey, taskLinesOf } from "../../core/task-lines.js";
import { wovenIn } from "../../ai/summarization/own-notes.js";
import { HistorySection } from "./note-history.js";
import { NoteNotepad } from "./note-notepad.js";
import { SharePanel } from "./note-share.js";
import { speakerList } from "./note-speakers.js";
import { downloads } from "./note-downloads.js";
import type { NoteVersionDto } from "../../shared/schemas/note-history.js";
import type { ActionItemDto } from "../../shared/schemas/action-items.js";
import type { meetingPanel } from "./note-meeting.js";
import { visibilityChoices, visibilityWords } from "../visibility.js";

/** Rendered Markdown (raw HTML disabled in the renderer, so the output is safe to embed). */
const Markdown = (props: { text: string; taskControl?: TaskControl }) => (
  <div class="markdown">{raw(renderMarkdown(props.text, { taskControl: props.taskControl }))}</div>
);

/** A titled part of a note, left out when it is empty. */
export function MarkdownSection(props: { title: string; text: string; taskControl?: TaskControl }) {
  return props.text ? (
    <section>
      <h2>{props.title}</h2>
      <Markdown text={props.text} taskControl={props.taskControl} />
    </section>
  ) : null;
}

/**
 * The note's action items made tickable where they are written: each task line's
 * checkbox belongs to its item's form (the page's script sends it when ticked), for a
 * reader who may edit the note. Returns the control for the text the items come from
 * (the enhanced note, else the summary) and the forms.
 */
function taskControls(note: NoteDto, items: ActionItemDto[], canTick: boolean, csrf: string) {
  if (!canTick || !items.length) return { field: null, control: undefined, forms: "" };
  const field = taskLinesOf(note.enhancedNote).length ? "enhancedNote" : "summary";
  const byKey = new Map(items.map((i) => [taskKey(i.text), i]));
  const atLine = new Map(
    taskLinesOf(note[field]).flatMap((t) => (byKey.has(t.key) ? [[t.line, byKey.get(t.key)!]] : [])),
  );
  const control: TaskControl = (line, checked) => {
    const item = atLine.get(line);
    if (!item) return null;
    return html`<input class="task-list-item-checkbox" type="checkbox" form="tick-${item.id}" name="done" value="1" data-tick${checked ? " checked" : ""} />`.toString();
  };
  const back = `/notes/${encodeURIComponent(note.id)}`;
  const forms = html`${items.map(
    (i) =>
      html`<form id="tick-${i.id}" method="post" action="/action-items/${i.id}" hidden><input type="hidden" name="csrf" value="${csrf}" /><input type="hidden" name="back" value="${back}" /></form>`,
  )}`;
  return { field, control, forms };
}

/** The open items the series' last meeting left: what this one should follow up. */
function openFromBefore(before: { note: { id: string; title: string }; items: ActionItemDto[] } | null | undefined) {
  if (!before?.items.length) return null;
  return html`<section class="panel" id="open-before"><h2>Open from the last meeting</h2><p class="small muted">From <a href="/notes/${before.note.id}">${before.note.title}</a></p><ul>${before.items.map(
    (i) =>
      html`<li>${i.text}${i.owner ? html` <span class="small">· ${i.owner.name}</span>` : ""}${i.due ? html` <span class="small muted">due ${i.due}</span>` : ""} <a class="moment" href="${i.url}">open</a></li>`,
  )}</ul></section>`;
}

/**
 * The transcript, one list item per segment. A tagged template rather than JSX: an
 * hour's meeting has hundreds of segments, and hono's `html` renders them about three
 * times faster (`npm run bench -- web`), escaping every value just the same.
 */
export function Transcript(props: {
  segments: NoteDto["transcripts"];
  playable: boolean;
  /** The note whose lines the reader may correct in place (Enter on a line edits it); never on a share page. */
  editableIn?: string;
}) {
  const at = props.playable
    ? (t: string) => html`<button type="button" class="at" aria-label="Play from ${t}">${t}</button>`
    : (t: string) => html`<span class="muted">${t}</span>`;
  const editable = props.editableIn;
  return html`<ol class="transcript"${editable ? html` data-note="${editable}" aria-describedby="transcript-how"` : ""}>${props.segments.map(
    (s, i) =>
      html`<li id="segment-${i}" data-start="${seconds(s.startTimestamp)}" data-speaker="${s.speaker}"${editable ? html` data-line="${s.id}" data-version="${String(s.version)}" tabindex="0"` : ""}>${at(s.startTimestamp)}<span>${s.speaker ? html`<span class="speaker">${s.speaker}:</span>` : ""}<span class="said">${s.text}</span></span></li>`,
  )}</ol>${editable ? html`<p id="transcript-how" class="small muted">To correct a line, select it and press Enter (or double-click it); Enter saves, Esc cancels.</p>` : ""}`;
}

const on = (flag: boolean, attribute: string) => (flag ? attribute : "");

/** What writing the note anew asks first when a person edited its summary or enhanced note. */
const keepEdits = (note: NoteDto) =>
  note.textEditedAt
    ? html`<label class="small"><input type="checkbox" name="discardEdits" value="true" required /> Write the summary and enhanced note anew, replacing the edited ones</label>`
    : "";

/** The facts panel: date, duration, status (polled while processing), people, sharing. */
function facts(note: NoteDto, visibility: string, zone: string) {
  const id = encodeURIComponent(note.id);
  // Followed while something is happening to it: processing, or being recorded.
  const processing = !FINAL_STATUSES.has(note.status) || note.status === "recording" || note.status === "idle";
  const people = note.participants.length
    ? note.participants.map((p) => (p.name && p.email ? `${p.name} <${p.email}>` : p.name || p.email)).join(", ")
    : "—";
  const share = note.shareUrl
    ? html`<div><dt>Share link</dt><dd><span class="secret"><code id="share-url">${note.shareUrl}</code><button type="button" class="secondary" data-copy="share-url">Copy</button></span></dd></div>`
    : "";
  // While it is recorded, the transcript grows too: the page follows it.
  const poll = processing
    ? html` data-poll-status="/notes/${id}/status" data-segments="${String(note.transcripts.length)}"`
    : "";
  // One line under the title, each fact a pair (wrapping on a phone): what the note is
  // comes first on the page, the summary right after it.
  return html`<dl class="facts line">
<div><dt>Date</dt><dd>${formatDate(note.createdAt, zone)}</dd></div>
<div><dt>Duration</dt><dd>${
    // Before transcription the duration is only what the uploader guessed (a browser
    // cannot always tell): the recording's own is measured when it is decoded.
    note.status === "postprocessing" || note.status === "idle"
      ? "measured once processing starts"
      : formatDuration(note.totalDurationSec)
  }</dd></div>
<div><dt>Status</dt><dd><span class="badge ${note.status}"${poll} data-status="${note.status}" role="status">${statusLabel(note)}</span>${note.processingError ? html`<span class="small"> ${note.processingError}</span>` : ""}${(note.processingWarnings ?? []).map((w) => html`<span class="small warning"> ${w}</span>`)}</dd></div>
${note.template ? html`<div><dt>Template</dt><dd>${note.template.name ?? note.template.id}</dd></div>` : ""}
${note.speakers?.length ? html`<div><dt>Speakers</dt><dd>${speakerList(note.speakers)}</dd></div>` : ""}
<div><dt>Participants</dt><dd>${people}</dd></div>
<div><dt>Folders</dt><dd>${note.tags.length ? note.tags.map((t) => t.name).join(", ") : "—"}</dd></div>
<div><dt>Visibility</dt><dd>${visibility}</dd></div>
${share}</dl>`;
}

/**
 * The player, in a bar that stays at the top of the window while the transcript
 * scrolls under it (its pause button always in reach); or, between Stop and the
 * pieces being joined, a line saying the recording is on its way.
 */
function player(note: NoteDto, audio: NoteAudioState) {
  if (audio === "preparing")
    return html`<p class="player-bar muted" id="player-preparing" role="status">Preparing the recording…</p>`;
  if (audio !== "ready") return "";
  return html`<div class="player-bar"><audio id="player" controls preload="metadata" src="/notes/${encodeURIComponent(note.id)}/audio" aria-label="Recording"></audio></div>`;
}

/** Whether a note's recording can be played: it can, it is being joined, or there is none. */
export type NoteAudioState = "ready" | "preparing" | null;

/** Enhance with another template, and name the speakers. */
function reshape(props: {
  viewer: Viewer;
  note: NoteDto;
  templates: { id: string; name: string }[];
  canEnhance: boolean;
}) {
  const { note } = props;
  const id = encodeURIComponent(note.id);
  const csrf = html`<input type="hidden" name="csrf" value="${props.viewer.csrf}" />`;
  // Recorded or processed now: what a template would be given is still being written.
  const busy = !FINAL_STATUSES.has(note.status) || note.status === "recording";
  const current = note.template?.id;
  const enhance = html`<form method="post" action="/notes/${id}/enhance" class="panel">${csrf}
<label for="template">Write the enhanced note with the template</label>
<select id="template" name="templateId">${props.templates.map((t) => html`<option value="${t.id}" ${on(t.id === current, "selected")}>${t.name}</option>`)}</select>
${keepEdits(note)}<div class="actions"><button type="submit" class="secondary">Enhance</button></div></form>`;
  const speakers = note.speakers?.length
    ? html`<form method="post" action="/notes/${id}/speakers" class="panel">${csrf}<fieldset><legend>Speaker names</legend>${note.speakers.map(
        (sp, i) =>
          html`<label for="speaker-${i}">${sp.label}${sp.suggested ? html` <span class="muted">(sounds like ${sp.name}, from an earlier meeting)</span>` : ""}</label><input type="hidden" name="label" value="${sp.label}" /><input id="speaker-${i}" name="name" type="text" maxlength="200" list="names" value="${sp.name === sp.label ? "" : sp.name}" placeholder="${sp.label}" />${sp.suggested ? html`<button type="submit" class="secondary" name="confirm" value="${sp.label}">Confirm ${sp.name}</button>` : ""}`,
      )}</fieldset><div class="actions"><button type="submit" class="secondary">Name speakers</button></div></form>`
    : "";
  // Enhancing is for a finished note: while it is recorded or processed there is nothing to write it from yet.
  const offerEnhance = props.canEnhance && !busy;
  if (!offerEnhance && !speakers) return "";
  return html`<section><h2>${offerEnhance ? "Template and speakers" : "Speakers"}</h2>${offerEnhance ? enhance : ""}${speakers}</section>`;
}

/** The edit form, and the reprocess and delete actions. */
function editor(props: {
  viewer: Viewer;
  note: NoteDto;
  may: NoteAbilities;
  mine: boolean;
  /** Whether there is a recording or a transcript to process again. */
  processable: boolean;
  /** Lines a person corrected that transcribing the recording anew would lose. */
  corrected: number;
  folders: { id: string; name: string }[];
  privateFolders: string[];
  shareTranscript: boolean | null;
}) {
  const { note } = props;
  const id = encodeURIComponent(note.id);
  const csrf = html`<input type="hidden" name="csrf" value="${props.viewer.csrf}" />`;
  const inFolder = new Set(note.tags.map((t) => t.id));
  const visibility = visibilityChoices(props.privateFolders).map(
    (v) => html`<option value="${v.value}" ${on(note.visibility === v.value, "selected")}>${v.label}</option>`,
  );
  const share =
    props.shareTranscript !== null && props.may.widen
      ? html`<fieldset><legend>Share page</legend><input type="hidden" name="shareShown" value="1" /><label><input type="checkbox" name="shareTranscript" value="1" ${on(props.shareTranscript, "checked")} /> Show the transcript on the share page</label></fieldset>`
      : "";
  const folders = props.folders.length
    ? html`<fieldset><legend>Folders</legend>${props.folders.map(
        (x) =>
          html`<label><input type="checkbox" name="folderIds" value="${x.id}" ${on(inFolder.has(x.id), "checked")} /> ${x.name}</label>`,
      )}</fieldset>`
    : "";
  return html`<section><h2>Edit</h2>
<form method="post" action="/notes/${id}" class="panel">${csrf}
<label for="title">Title</label><input id="title" name="title" type="text" required maxlength="500" value="${note.title}" />
<label for="visibility">Visibility</label><select id="visibility" name="visibility" ${on(!props.may.widen, "disabled")} ${on(!props.may.widen, 'aria-describedby="visibility-why"')}>${visibility}</select>
${props.may.widen ? "" : html`<p id="visibility-why" class="muted small">Only the note's creator or an admin can change who sees it.</p>`}
${share}${folders}
<label for="note">${props.mine ? "Your notes" : "Notes written in the meeting"} (Markdown)</label><textarea id="note" name="userWrittenNote" maxlength="500000">${note.userWrittenNote}</textarea>
${
  FINAL_STATUSES.has(note.status) && (note.summary || note.enhancedNote)
    ? html`<details${note.textEditedAt ? " open" : ""}><summary>Correct the summary and the enhanced note</summary><label for="summary-text">Summary (Markdown)</label><textarea id="summary-text" name="summary" maxlength="500000">${note.summary}</textarea><label for="enhanced-text">Enhanced note (Markdown)</label><textarea id="enhanced-text" name="enhancedNote" maxlength="500000">${note.enhancedNote}</textarea></details>`
    : ""
}
<div class="actions"><button type="submit">Save</button></div></form>
<div class="actions">${props.processable ? html`<form method="post" action="/notes/${id}/reprocess">${csrf}${keepEdits(note)}${props.corrected ? html`<label class="small"><input type="checkbox" name="discardCorrections" value="true" required /> Transcribe the recording anew, losing the ${props.corrected} line${props.corrected === 1 ? "" : "s"} corrected by hand</label>` : ""}<button type="submit" class="secondary" ${on(!FINAL_STATUSES.has(note.status), "disabled")}>Process again</button></form>` : ""}
${props.may.emailRecap && note.summary.trim() ? html`<a class="button secondary" href="/notes/${id}/recap">Email the recap…</a>` : ""}
${props.may.delete ? html`<a class="button secondary" href="/notes/${id}/delete">Delete…</a>` : ""}</div></section>`;
}

/**
 * A note's page. Its body is written as tagged templates rather than JSX: it is the
 * second most read page, and hono's `html` renders it in about half the time
 * (`npm run bench -- web`), escaping every interpolated value just the same.
 */
/** The note as a file: markdown and text always, subtitles when there is a transcript. A menu that needs no script. */

export function NotePage(props: {
  viewer: Viewer;
  note: NoteDto;
  /** What this viewer may do with the note (the access policy's answer). */
  may: NoteAbilities;
  folders: { id: string; name: string }[];
  templates: { id: string; name: string }[];
  /** The recording: playable, being prepared (just stopped), or none. */
  audio: NoteAudioState;
  /** The private folders the note is filed in, by name: they narrow who can read it. */
  privateFolders: string[];
  shareTranscript: boolean | null;
  /** Whether the share link plays the recording; null without a link. */
  shareRecording: boolean | null;
  /** The meeting it records: its calendar event, its series' neighbours, who was there (note-meeting.tsx). */
  meeting?: ReturnType<typeof meetingPanel>;
  /**
   * Whether writing the enhanced note again makes sense: from a transcript, or from the
   * person's own notes when a language model writes it (the offline method needs speech).
   */
  canEnhance: boolean;
  /** Whether the viewer made the note. */
  mine: boolean;
  /** Why this note's recording waits for a speech-to-text engine, or null. */
  speechProblem?: string | null;
  /** The note's action items, tickable on the page by those who may edit it. */
  actionItems?: ActionItemDto[];
  /** Its history, for whoever may edit it (note-history.tsx). */
  history?: NoteVersionDto[];
  /** The items the last meeting of its series left open. */
  openBefore?: { note: { id: string; title: string }; items: ActionItemDto[] } | null;
  error?: string;
  notice?: string;
}) {
  const { note, viewer } = props;
  const hasAudio = props.audio !== null;
  // Being recorded, and this person may write its notes: the notepad is here beside its transcript.
  const recordingHere = note.status === "recording" && props.may.edit;
  const ticks = taskControls(note, props.actionItems ?? [], props.may.edit, viewer.csrf);
  return (
    <Layout title={note.title} viewer={viewer} section="notes" wide>
      <p class="small">
        <a href="/notes">← All notes</a>
      </p>
      <div class="page-head">
        <h1>{note.title}</h1>
        {SharePanel({
          viewer,
          note,
          mayWiden: props.may.widen,
          privateFolders: props.privateFolders,
          shareTranscript: props.shareTranscript,
          shareRecording: props.shareRecording,
          hasAudio: props.audio === "ready",
        })}
      </div>
      <Alert error={props.error} ok={props.notice} />
      <SpeechNotice viewer={viewer} problem={props.speechProblem} waiting />
      {/* On a wide screen the recording and the transcript sit beside the note's facts and
          text; on a phone they come in this order: player, facts, text, transcript. */}
      <div class={`note-layout${note.transcripts.length || hasAudio ? " beside" : ""}`}>
        <div class="note-player">{player(note, props.audio)}</div>
        <div class="note-text">
          {facts(note, visibilityWords(note.visibility, props.privateFolders), viewer.timeZone)}
          {openFromBefore(props.openBefore)}
          <MarkdownSection
            title="Summary"
            text={note.summary}
            taskControl={ticks.field === "summary" ? ticks.control : undefined}
          />
          {note.summary && note.processingInfo?.summary === "extractive" ? (
            <p class="small muted" id="extract-hint">
              This summary and enhanced note are extracts of what was said.{" "}
              {workspacePolicy.configureAi(viewer.principal) ? (
                <>
                  Set up a language model in <a href="/settings/ai">Settings → AI</a> (a server, or a small one on this
                  machine) for written ones, then write the note again.
                </>
              ) : (
                "An admin can set up a language model (Settings → AI) for written ones."
              )}
            </p>
          ) : null}
          <MarkdownSection
            title="Enhanced note"
            text={note.enhancedNote}
            taskControl={ticks.field === "enhancedNote" ? ticks.control : undefined}
          />
          {ticks.forms}
          {/* Once the enhanced note is built on them, the person's lines are there, once. */}
          {recordingHere ? (
            <NoteNotepad note={note} />
          ) : note.userWrittenNote && wovenIn(note.userWrittenNote, note.enhancedNote) ? null : (
            <section>
              <h2>{props.mine ? "Your notes" : "Notes written in the meeting"}</h2>
              {note.userWrittenNote ? <Markdown text={note.userWrittenNote} /> : <p class="muted">None yet.</p>}
            </section>
          )}
          {/* After what the meeting said: asking it, the meeting it records, its files. */}
          {note.transcripts.length ? askBox(viewer, { noteId: note.id }, { label: "Ask this meeting" }) : null}
          {props.meeting}
          {downloads(note, props.audio === "ready")}
        </div>
        {/* While it is recorded beside the notepad, the page swaps this part in as it grows (browser/page.ts). */}
        <div id="live-transcript">
          {note.transcripts.length ? (
            <section class="note-transcript" aria-labelledby="transcript-title">
              <h2 id="transcript-title">Transcript</h2>
              <Transcript
                segments={note.transcripts}
                playable={props.audio === "ready"}
                editableIn={props.may.edit && FINAL_STATUSES.has(note.status) ? note.id : undefined}
              />
            </section>
          ) : recordingHere ? (
            <p class="muted">The transcript shows here as the meeting is heard.</p>
          ) : null}
        </div>
      </div>
      {reshape(props)}
      {props.may.edit && props.history ? (
        <HistorySection viewer={viewer} noteId={note.id} versions={props.history} />
      ) : null}
      {editor({
        ...props,
        processable: hasAudio || note.transcripts.length > 0,
        corrected: hasAudio ? note.transcripts.filter((l) => l.version > 0).length : 0,
      })}
    </Layout>
  );
}

export function DeleteNotePage(props: { viewer: Viewer; note: NoteDto }) {
  return (
    <Layout title="Delete note" viewer={props.viewer} section="notes" narrow>
      <h1>Delete “{props.note.title}”?</h1>
      <p>The note, its transcript and its recording are deleted for everyone. This cannot be undone.</p>
      <form method="post" action={`/notes/${encodeURIComponent(props.note.id)}/delete`} class="actions">
        <Csrf viewer={props.viewer} />
        <button type="submit" class="danger">
          Delete “{props.note.title}”
        </button>
        <a class="button secondary" href={`/notes/${encodeURIComponent(props.note.id)}`}>
          Keep it
        </a>
      </form>
    </Layout>
  );
}
