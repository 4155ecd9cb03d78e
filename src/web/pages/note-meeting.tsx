// The meeting a note records, on its page: the calendar event it is linked to (and a
// way to unlink it), the notes before and after it in a recurring meeting, and who
// was there, editable with the workspace's members and recent attendees offered.
import { html } from "hono/html";
import type { NoteDto } from "../../shared/schemas/notes.js";
import type { SeriesLink } from "../../services/note-series.js";
import type { PersonSuggestion } from "../../services/people-suggestions.js";
import { formatDate } from "../format.js";
import { personLine } from "../../shared/person-line.js";

/** Every participant's field, and a few empty ones to add more. */
export function participantFields(people: { name: string; email: string }[], extra = 3) {
  return html`${[...people.map(personLine), ...Array<string>(extra).fill("")].map(
    (v, i) =>
      html`<input type="text" name="participant" list="people" maxlength="900" aria-label="Participant ${String(i + 1)}" value="${v}" ${i === 0 ? html`placeholder="Ana Lopez &lt;ana@acme.example&gt;, an address or a name"` : ""} />`,
  )}`;
}

/** The people offered as one types (a native datalist: no script needed). */
export const peopleList = (people: PersonSuggestion[]) =>
  html`<datalist id="people">${people.map((p) => html`<option value="${personLine(p)}"></option>`)}</datalist>`;

/**
 * The names offered when a speaker is named: the meeting's participants first (the
 * calendar says who was talking), then the workspace's members and recent attendees.
 */
export function speakerNames(participants: { name: string }[], people: PersonSuggestion[]) {
  const names = [...new Set([...participants, ...people].map((p) => p.name.trim()).filter(Boolean))];
  return html`<datalist id="names">${names.map((n) => html`<option value="${n}"></option>`)}</datalist>`;
}

function seriesNav(series: { previous: SeriesLink | null; next: SeriesLink | null } | null, zone: string) {
  if (!series || (!series.previous && !series.next)) return "";
  const link = (n: SeriesLink, rel: "prev" | "next") =>
    html`<a rel="${rel}" href="/notes/${encodeURIComponent(n.id)}">${rel === "prev" ? "← Previous: " : "Next: "}${n.title}, ${formatDate(new Date(n.createdAt).toISOString(), zone)}${rel === "next" ? " →" : ""}</a>`;
  return html`<nav class="series" aria-label="This recurring meeting">${series.previous ? link(series.previous, "prev") : html`<span></span>`}${series.next ? link(series.next, "next") : ""}</nav>`;
}

export function meetingPanel(props: {
  note: NoteDto;
  csrf: string;
  /** The reader's time zone. */
  zone: string;
  canEdit: boolean;
  series: { previous: SeriesLink | null; next: SeriesLink | null } | null;
  suggestions: PersonSuggestion[];
  /** The person's meetings around the note's time, to link it to by hand (none when it is linked). */
  nearby: { id: string; title: string; startsAt: string }[];
}) {
  const { note, zone } = props;
  const id = encodeURIComponent(note.id);
  const csrf = html`<input type="hidden" name="csrf" value="${props.csrf}" />`;
  const event = note.calendarEvent?.title ? note.calendarEvent : null;
  const linked = event
    ? html`<p>Recorded for <strong>${event.title}</strong>, from your calendar: ${formatDate(event.startsAt, zone)}${note.meetingApp ? ` on ${note.meetingApp}` : ""}.</p>${
        props.canEdit
          ? html`<form method="post" action="/notes/${id}/unlink" class="inline">${csrf}<button type="submit" class="secondary">Unlink from this meeting</button></form>`
          : ""
      }`
    : "";
  const link =
    !event && props.canEdit && props.nearby.length
      ? html`<details class="link-meeting"><summary>Link to a meeting</summary><form method="post" action="/notes/${id}/link" class="panel">${csrf}<fieldset><legend>Your meetings around ${formatDate(note.createdAt, zone)}</legend>${props.nearby.map(
          (e, i) =>
            html`<label class="check"><input type="radio" name="eventId" value="${e.id}" ${i === 0 ? "required" : ""} /> ${e.title || "(no title)"}, ${formatDate(e.startsAt, zone)}</label>`,
        )}</fieldset><p class="muted small">The meeting's attendees join the note's participants, and its recap can be mailed to them.</p><div class="actions"><button type="submit">Link</button></div></form></details>`
      : "";
  const editor = props.canEdit
    ? html`<details><summary>Edit who was there</summary><form method="post" action="/notes/${id}/participants" class="participants">${csrf}<p class="muted small">One person per field, as “Name &lt;address&gt;”, an address or a name. Members and the people of your meetings are offered as you type.</p>${participantFields(note.participants)}${peopleList(props.suggestions)}<div class="actions"><button type="submit">Save participants</button></div></form></details>`
    : "";
  const names = props.canEdit ? speakerNames(note.participants, props.suggestions) : "";
  if (!linked && !link && !editor && !seriesNav(props.series, props.zone)) return "";
  return html`<section class="meeting" aria-label="Meeting">${linked}${link}${seriesNav(props.series, props.zone)}${editor}${names}</section>`;
}
