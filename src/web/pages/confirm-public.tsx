// "Make this note public?": asked when a note filed in a private folder is about to be
// made public. The form carries the Edit form's fields as they were sent, so
// confirming saves exactly what the person chose, and going back changes nothing.
import { Layout } from "../components/layout.js";
import type { Viewer } from "../context.js";

export function ConfirmPublicPage(props: {
  viewer: Viewer;
  noteId: string;
  title: string;
  warning: string;
  /** The Edit form's fields as sent (csrf among them), each name with its values. */
  fields: [string, string[]][];
}) {
  const back = `/notes/${encodeURIComponent(props.noteId)}`;
  return (
    <Layout title="Make the note public?" viewer={props.viewer} section="notes" narrow>
      <h1>Make “{props.title}” public?</h1>
      <p class="notice" role="alert" id="public-warning">
        {props.warning}
      </p>
      <form method="post" action={back} class="actions">
        {props.fields.flatMap(([name, values]) => values.map((v) => <input type="hidden" name={name} value={v} />))}
        <input type="hidden" name="confirmPublic" value="1" />
        <button type="submit" class="danger">
          Make it public
        </button>
        <a class="button secondary" href={back}>
          Keep it as it is
        </a>
      </form>
    </Layout>
  );
}
