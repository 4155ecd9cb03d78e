import { ComingUp } from "../components/coming-up.js";
import type { SearchResponse } from "../../shared/schemas/search.js";
import type { NoteBrief } from "../../shared/schemas/notes.js";
import { html } from "hono/html";
import { askBox } from "./ask.js";
import { NOTE_STATUSES } from "../../shared/vocabulary.js";
import { Alert, Layout } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { formatDuration, STATUS_LABELS, when } from "../format.js";
import { notePath, secondsOf } from "../../shared/note-links.js";
import { contentTerms, parseSearchQuery } from "../../core/search-query.js";

export interface ListFilters {
  search?: string;
  said?: string;
  folderIds?: string;
  status?: string;
  fromDate?: string;
  toDate?: string;
  participantEmail?: string;
}

/** The list's URL with these filters and offset: pages keep the filters. */
export function listUrl(f: ListFilters, offset = 0): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  if (offset) q.set("offset", String(offset));
  const s = q.toString();
  return s ? `/notes?${s}` : "/notes";
}

/** A snippet from the full-text index: «matched» words become marks, the rest stays text. */
function Snippet(props: { text: string }) {
  const parts = props.text.split(/(«[^»]*»)/);
  return (
    <p class="small">{parts.map((p) => (p.startsWith("«") && p.endsWith("»") ? <mark>{p.slice(1, -1)}</mark> : p))}</p>
  );
}

/**
 * One note of the list. A tagged template rather than JSX: the list is the app's most
 * read page, and hono's `html` renders its rows about three times faster (measured by
 * `npm run bench -- web`); it escapes every interpolated value just the same.
 */
function noteItem(n: NoteBrief, viewer: Viewer) {
  const folders = n.tags.length ? ` · ${n.tags.map((t) => t.name).join(", ")}` : "";
  const people = n.participants.length ? ` · ${n.participants.map((p) => p.name || p.email).join(", ")}` : "";
  return html`<li><a class="title" href="/notes/${encodeURIComponent(n.id)}">${n.title}</a> ${n.status === "completed" ? "" : html`<span class="badge ${n.status}">${STATUS_LABELS[n.status] ?? n.status}</span>`}<div class="meta">${when(n.createdAt, viewer)} · ${formatDuration(n.totalDurationSec)}${folders}${people}</div></li>`;
}

/** The search and filter form; a template for the reason given at noteItem. */
function filterForm(f: ListFilters, folders: { id: string; name: string }[]) {
  const sel = (on: boolean) => (on ? " selected" : "");
  const folderOptions = folders.map(
    (x) => html`<option value="${x.id}"${sel(f.folderIds === x.id)}>${x.name}</option>`,
  );
  // The states people search by: not the moments before a note's audio arrives or is picked up.
  const statusOptions = NOTE_STATUSES.filter((st) => st !== "idle" && st !== "postprocessing").map(
    (st) => html`<option value="${st}"${sel(f.status === st)}>${STATUS_LABELS[st]}</option>`,
  );
  return html`<form method="get" action="/notes" class="panel" role="search" aria-label="Find notes">
<div class="row"><div class="grow"><label for="search">Title</label><input id="search" name="search" type="search" value="${f.search ?? ""}" placeholder="words of the title" /></div>
<div class="grow"><label for="said">What was said</label><input id="said" name="said" type="search" value="${f.said ?? ""}" placeholder="words from the notes or transcript" /></div></div>
<details class="filters"${filtered(f) ? " open" : ""}><summary>Filters${filtered(f) ? " (on)" : ""}</summary>
<div class="row"><div><label for="folder">Folder</label><select id="folder" name="folderIds"><option value="">Any folder</option>${folderOptions}</select></div>
<div><label for="status">Status</label><select id="status" name="status"><option value="">Any status</option>${statusOptions}</select></div>
<div><label for="from">From</label><input id="from" name="fromDate" type="date" value="${f.fromDate ?? ""}" /></div>
<div><label for="to">Before</label><input id="to" name="toDate" type="date" value="${f.toDate ?? ""}" /></div>
<div><label for="participant">Participant email</label><input id="participant" name="participantEmail" type="email" value="${f.participantEmail ?? ""}" /></div></div></details>
<div class="actions"><button type="submit">Find</button><a class="button secondary" href="/notes">Clear</a></div></form>`;
}

type Hit = SearchResponse["results"][number];

function hitList(hits: Hit[], viewer: Viewer) {
  return (
    <ul class="notes">
      {hits.map((h) => (
        <li>
          <a class="title" href={`/notes/${encodeURIComponent(h.note.id)}`}>
            {h.note.title}
          </a>
          <div class="meta">{when(h.note.createdAt, viewer)}</div>
          {h.matches.map((m) => (
            <div class="match">
              {m.segment !== null ? (
                <a class="small" href={notePath(h.note.id, secondsOf(m.startTimestamp))}>
                  {m.startTimestamp}
                  {m.speaker ? ` · ${m.speaker}` : ""}
                </a>
              ) : null}
              <Snippet text={m.text} />
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** Whether the list is narrowed by more than the words (a folder, status, dates, a participant). */
const filtered = (f: ListFilters) => Boolean(f.folderIds || f.status || f.fromDate || f.toDate || f.participantEmail);

/**
 * What was said, in the tiers the search found it by: the notes that say it as asked,
 * those with every word of it apart, those with some of its words, then those only
 * related by meaning. Each part says how its notes were found, so that a note found by
 * "plan" alone is never counted among those that mention "annual plan".
 */
function SearchResults(props: {
  hits: Hit[];
  said: string;
  filtered: boolean;
  suggestion?: string | null;
  viewer: Viewer;
}) {
  const query = contentTerms(parseSearchQuery(props.said));
  // With one term (a word, or a quoted phrase) every word found is the term as asked.
  const one = query.terms.length <= 1;
  const mention = props.hits.filter((h) => h.foundBy === "phrase" || (one && h.foundBy === "words"));
  const apart = props.hits.filter((h) => !one && h.foundBy === "words");
  const some = props.hits.filter((h) => h.foundBy === "some-words");
  const related = props.hits.filter((h) => h.foundBy === "meaning");
  const count = (n: number) => `${n} ${n === 1 ? "note" : "notes"}`;
  return (
    <section aria-label="Search results">
      {mention.length ? (
        <>
          <p class="muted">
            {mention.length} {mention.length === 1 ? "note mentions" : "notes mention"} “{props.said}”.
          </p>
          {hitList(mention, props.viewer)}
        </>
      ) : (
        <p class="muted" role="status">
          No note mentions “{props.said}”.{" "}
          {props.hits.length
            ? ""
            : (props.suggestion ??
              (props.filtered
                ? "Try clearing the filters, or other words."
                : "Check the spelling, or try other or fewer words."))}
        </p>
      )}
      {apart.length ? (
        <>
          <h2 class="related">Every word, not together</h2>
          <p class="small muted">
            {count(apart.length)} {apart.length === 1 ? "has" : "have"} each of these words, but not as written.
          </p>
          {hitList(apart, props.viewer)}
        </>
      ) : null}
      {some.length ? (
        <>
          <h2 class="related">Some of the words</h2>
          <p class="small muted">
            {count(some.length)} {some.length === 1 ? "has" : "have"} some of these words, not all.
          </p>
          {hitList(some, props.viewer)}
        </>
      ) : null}
      {related.length ? (
        <>
          <h2 class="related">Related by meaning</h2>
          <p class="small muted">These do not use those words, but talk about something close.</p>
          {hitList(related, props.viewer)}
        </>
      ) : null}
    </section>
  );
}

export function NotesListPage(props: {
  viewer: Viewer;
  filters: ListFilters;
  folders: { id: string; name: string }[];
  notes: NoteBrief[];
  hits: SearchResponse["results"] | null;
  previous: number | null;
  next: number | null;
  /** What would find something when the search found nothing. */
  suggestion?: string | null;
  error?: string;
  notice?: string;
  /** The person's next meetings, from their calendars. */
  comingUp?: Omit<Parameters<typeof ComingUp>[0], "zone">;
  /** Said to an admin on the first-run screen: no language model writes the notes yet. */
  extractsOnly?: boolean;
  /** Why an admin would want another speech engine (pocketsphinx is a fallback), on the first-run screen. */
  speechCaveat?: string | null;
}) {
  const f = props.filters;
  return (
    <Layout title="Notes" viewer={props.viewer} section="notes">
      <div class="page-head">
        <h1>Notes</h1>
        {/* Recording is one tap from the list, on a phone too. */}
        <a class="button" href="/notes/new" id="list-record">
          Record or write a note
        </a>
      </div>
      <Alert ok={props.notice} />
      {/* Each tool behind one tap, so that on a phone the notes start on the first screen;
          a wider screen opens them all (the page's script). */}
      <div class="list-tools">
        {props.comingUp?.meetings.length ? (
          <details class="fold" data-open-wide>
            <summary>Coming up ({props.comingUp.meetings.length})</summary>
            <ComingUp {...props.comingUp} zone={props.viewer.timeZone} />
          </details>
        ) : null}
        <details class="fold" data-open-wide open={Boolean(f.search || f.said || filtered(f))}>
          <summary>Find{f.search || f.said || filtered(f) ? " (on)" : ""}</summary>
          {filterForm(f, props.folders)}
        </details>
        <details class="fold" data-open-wide>
          <summary>Ask</summary>
          {askBox(
            props.viewer,
            { folderIds: f.folderIds, fromDate: f.fromDate, toDate: f.toDate, participantEmail: f.participantEmail },
            { label: filtered(f) ? "Ask the meetings these filters show" : "Ask your meetings" },
          )}
        </details>
      </div>
      <Alert error={props.error} />
      {props.hits ? (
        <SearchResults
          hits={props.hits}
          said={f.said ?? ""}
          filtered={filtered(f)}
          suggestion={props.suggestion}
          viewer={props.viewer}
        />
      ) : (
        <section aria-label="Notes">
          {props.notes.length === 0 ? (
            filtered(f) || f.search || props.previous !== null ? (
              <p class="muted">No notes match.</p>
            ) : (
              <div class="panel empty">
                <p>
                  <strong>No notes yet.</strong>
                </p>
                <p>
                  Record a meeting here in the browser, upload a recording, or write a note: it appears here, with its
                  transcript and summary once processed.
                </p>
                <p>
                  <a class="button" href="/notes/new">
                    New note
                  </a>
                </p>
                {props.speechCaveat ? (
                  <p class="small muted" id="first-run-speech">
                    {props.speechCaveat} Set up whisper in <a href="/settings/speech">Settings → Speech-to-text</a>.
                  </p>
                ) : null}
                {props.extractsOnly ? (
                  <p class="small muted" id="first-run-ai">
                    Summaries are extracts of what was said until a language model writes them: set one up in{" "}
                    <a href="/settings/ai">Settings → AI</a>, either a server (OpenAI, Ollama…) or a small model run on
                    this machine.
                  </p>
                ) : null}
              </div>
            )
          ) : null}
          <ul class="notes">{props.notes.map((n) => noteItem(n, props.viewer))}</ul>
          <nav class="pager" aria-label="Pages">
            {props.previous !== null ? <a href={listUrl(f, props.previous)}>← Newer</a> : <span />}
            {props.next !== null ? <a href={listUrl(f, props.next)}>Older →</a> : <span />}
          </nav>
        </section>
      )}
    </Layout>
  );
}
