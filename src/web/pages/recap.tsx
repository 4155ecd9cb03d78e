// "Email the recap": what the mail says and who gets it, each with the link they can
// open, before anything is sent. The sender picks the recipients among the participants.
import { Alert, Csrf, Layout } from "../components/layout.js";
import type { Viewer } from "../context.js";
import type { RecapPreview } from "../../shared/schemas/recap.js";
import { formatDate } from "../format.js";

const LINKS: Record<string, string> = {
  share: "the share link (the note is public)",
  note: "a link to the note",
  none: "the text alone (the note is not theirs to open)",
};

export function RecapPage(props: {
  viewer: Viewer;
  noteId: string;
  title: string;
  recap: RecapPreview;
  error?: string;
}) {
  const { recap, viewer } = props;
  const back = `/notes/${encodeURIComponent(props.noteId)}`;
  return (
    <Layout title={`Email the recap of ${props.title}`} viewer={viewer} section="notes">
      <p class="small">
        <a href={back}>← {props.title}</a>
      </p>
      <h1>Email the recap</h1>
      <Alert error={props.error} />
      {!recap.configured ? (
        <p class="notice" role="status">
          Email is not set up for this workspace yet: an admin sets it up in Settings → Email (see the operations
          guide).
        </p>
      ) : null}
      {recap.recipients.length === 0 ? (
        <p>
          The note has no participants with an email address besides you. Add them to the note first, or record it for a
          calendar meeting.
        </p>
      ) : (
        <form method="post" action={`${back}/recap`} class="panel">
          {recap.meeting ? (
            <p id="recap-meeting">
              The note is linked to the calendar event <strong>{recap.meeting.title}</strong>
              {recap.meeting.startsAt ? `, ${formatDate(recap.meeting.startsAt, viewer.timeZone)}` : ""}; the people
              marked “invited to the meeting” come from it. If this note is not that meeting, unlink it on the note's
              page first.
            </p>
          ) : (
            <p id="recap-meeting" class="muted small">
              The note is linked to no calendar event: the recipients are the people added to it.
            </p>
          )}
          <Csrf viewer={viewer} />
          <fieldset>
            <legend>Send it to</legend>
            {recap.recipients.map((r) => (
              <label class="check">
                <input type="checkbox" name="recipients" value={r.email} checked /> {r.name || r.email}{" "}
                <span class="muted small">
                  {r.name ? `${r.email}, ` : ""}
                  {r.from === "meeting" ? "invited to the meeting, " : "added to the note, "}with{" "}
                  {LINKS[r.link ?? "none"]}
                </span>
              </label>
            ))}
          </fieldset>
          <h2>{recap.subject}</h2>
          <pre class="mail-preview" tabindex={0} aria-label="The mail's text">
            {recap.text}
          </pre>
          <div class="actions">
            <button type="submit" disabled={!recap.configured}>
              Send the recap
            </button>
            <a class="button secondary" href={back}>
              Cancel
            </a>
          </div>
        </form>
      )}
    </Layout>
  );
}
