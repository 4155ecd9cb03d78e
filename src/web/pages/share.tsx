import type { NoteDto } from "../../shared/schemas/notes.js";
import { Layout } from "../components/layout.js";
import { rewriteCitations } from "../../shared/note-links.js";
import { formatDate, formatDuration } from "../format.js";
import { MarkdownSection, Transcript } from "./note.js";

/** A public note as anyone with its link sees it: no account, not indexed by search engines. */
export function SharePage(props: { note: NoteDto; includeTranscript: boolean; audioUrl: string | null }) {
  const { note } = props;
  return (
    <Layout title={note.title} noindex>
      <p class="small muted">Shared from notula</p>
      <h1>{note.title}</h1>
      <p class="muted">
        {formatDate(note.createdAt, "UTC")} · {formatDuration(note.totalDurationSec)}
      </p>
      {props.audioUrl ? (
        <div class="player-bar">
          <audio id="player" controls preload="metadata" src={props.audioUrl} aria-label="Recording"></audio>
        </div>
      ) : null}
      {/* Its moments link to the note itself, which an outsider cannot open: the times alone. */}
      <MarkdownSection title="Summary" text={rewriteCitations(note.summary, () => null)} />
      <MarkdownSection title="Notes" text={rewriteCitations(note.enhancedNote, () => null)} />
      {props.includeTranscript && note.transcripts.length ? (
        <section>
          <h2>Transcript</h2>
          <Transcript segments={note.transcripts} playable={props.audioUrl !== null} />
        </section>
      ) : null}
    </Layout>
  );
}
