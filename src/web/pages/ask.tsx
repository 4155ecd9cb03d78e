// Asking one's meetings in the web app: the Ask box (on the notes list, across the
// meetings its filters show; on a note's page, that meeting), a thread with its answers
// and their sources, and the list of one's threads. The answer streams in with script
// (assets/script.ts); without script the form posts and the thread page shows it.
import { workspacePolicy } from "../../core/access.js";
import { notePath } from "../../shared/note-links.js";
import { answerPieces } from "../../shared/answer-marks.js";
import { html } from "hono/html";
import type { AskThreadDto } from "../../shared/schemas/ask.js";
import { toTimestamp } from "../../core/transcript-time.js";
import { Csrf, Layout } from "../components/layout.js";
import type { Viewer } from "../context.js";
import { when } from "../format.js";

type Turn = AskThreadDto["turns"][number];

/** The Ask box: `scope` is carried as hidden fields (a note, or the list's filters). */
export function askBox(
  viewer: Viewer,
  scope: Record<string, string | undefined>,
  o: { label: string; threadId?: string },
) {
  const hidden = Object.entries({ ...scope, threadId: o.threadId }).filter(([, v]) => v);
  return html`<form method="post" action="/ask" class="panel ask-form" aria-label="${o.label}"><input type="hidden" name="csrf" value="${viewer.csrf}" />${hidden.map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`,
  )}<div class="ask-live" aria-live="polite"></div><label for="ask-question">${o.label}</label><div class="row"><input id="ask-question" name="question" type="text" required maxlength="2000" placeholder="What did we decide about…?" aria-keyshortcuts="a" autocomplete="off" /><button type="submit">Ask</button></div></form>`;
}

/**
 * A turn's answer and its sources, each a link that opens the note at that moment, as
 * is each `[n]` in the answer. Without a model the answer is the quotes themselves, so
 * the sources are only where they were said.
 */
export function turnView(
  t: Pick<Turn, "answer" | "citations" | "error" | "partial" | "engine">,
  /** Whether the reader may set up the workspace's language model (an admin). */
  configuresAi: boolean,
) {
  const quoted = t.engine !== "extractive";
  const answer = answerPieces(t.answer, t.citations.length).map((p) => {
    if ("text" in p) return p.text;
    const c = t.citations[p.cite - 1];
    return html`<a class="cite" href="${notePath(c.noteId, c.startSec)}" aria-label="Source ${p.cite}">[${p.cite}]</a>`;
  });
  return html`<div class="ask-answer"><p class="answer">${answer}</p>${
    t.error ? html`<p class="alert error" role="alert">The answer ended early: ${t.error}</p>` : ""
  }${
    t.citations.length
      ? html`<h3>Sources</h3><ol class="sources">${t.citations.map(
          (c) =>
            html`<li><a href="${notePath(c.noteId, c.startSec)}">${c.title}${c.startSec !== null ? `, ${toTimestamp(c.startSec)}` : ""}${c.speaker ? `, ${c.speaker}` : ""}</a>${quoted ? html`: “${c.quote}”` : ""}</li>`,
        )}</ol>`
      : ""
  }${
    t.engine === "extractive"
      ? html`<p class="small muted" id="no-model">No language model is set up for this workspace: these are the moments found, quoted. ${
          configuresAi
            ? html`Set one up in <a href="/settings/ai">Settings → AI</a> for written answers.`
            : "An admin of the workspace can set one up (Settings → AI) for written answers."
        }</p>`
      : ""
  }</div>`;
}

export function AskThreadPage(props: { viewer: Viewer; thread: AskThreadDto }) {
  const { thread, viewer } = props;
  const scope = thread.noteId ? { noteId: thread.noteId } : {};
  return (
    <Layout title={thread.title} viewer={viewer} section="ask">
      <p class="small">
        <a href="/ask">← All your questions</a>
      </p>
      <h1>{thread.title}</h1>
      {html`${thread.turns.map(
        (t, i) =>
          html`<section class="turn" id="${i === thread.turns.length - 1 ? "latest" : `turn-${i + 1}`}"><h2 class="question">${t.question}</h2>${turnView(t, workspacePolicy.configureAi(viewer.principal))}</section>`,
      )}`}
      {askBox(viewer, scope, { label: "Ask a follow-up", threadId: thread.id })}
      <form method="post" action={`/ask/threads/${thread.id}/delete`} data-confirm="Delete this thread?">
        <Csrf viewer={viewer} />
        <button type="submit" class="secondary">
          Delete this thread
        </button>
      </form>
    </Layout>
  );
}

export function AskPage(props: {
  viewer: Viewer;
  threads: { id: string; title: string; updatedAt: string; questions: number; noteId: string | null }[];
}) {
  return (
    <Layout title="Ask" viewer={props.viewer} section="ask">
      <h1>Ask your meetings</h1>
      <p class="muted">
        Answers come from the moments found in the meetings you can see, and cite them. Time words (last week, since
        2026-03-01) narrow the dates. Your questions are yours alone.
      </p>
      {askBox(props.viewer, {}, { label: "Ask your meetings" })}
      <section aria-label="Your questions">
        <h2>Your questions</h2>
        {props.threads.length ? (
          <ul class="threads">
            {props.threads.map((t) => (
              <li>
                <a href={`/ask/threads/${t.id}`}>{t.title}</a>{" "}
                <span class="small muted">
                  {when(t.updatedAt, props.viewer)} · {t.questions} question{t.questions === 1 ? "" : "s"}
                  {t.noteId ? " · one meeting" : ""}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">None yet.</p>
        )}
      </section>
    </Layout>
  );
}
