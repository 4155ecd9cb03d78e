// What a note's summarizer reads, made one way for the note written once the meeting
// is over (process-note.ts) and for the parts read ahead while it is recorded
// (read-ahead.ts): the same template, speakers' names, times and people, so that a
// part read during the meeting is the same part when the note is written.
import type { SummaryInput } from "../ai/summarization/summarizer.js";
import { toTimestamp } from "../core/transcript-time.js";
import type { Repositories } from "../db/repos/index.js";
import type { NoteRow } from "../db/stores/note-store.js";
import type { WorkspaceEngines } from "../services/ai-config.js";
import type { TemplateService } from "../services/templates.js";

export interface SummaryInputDeps {
  repos: Repositories;
  templates: Pick<TemplateService, "forNote" | "spec">;
}

export async function summaryInputOf(
  d: SummaryInputDeps,
  ai: WorkspaceEngines,
  note: NoteRow,
  o: {
    /** Asked for; else the one the note was last written with, else the folder's or workspace's default. */
    templateId?: string;
    /** Only the transcript's first lines (those a recording's final pass has written). */
    lines?: number;
  } = {},
) {
  const { repos } = d;
  // A deleted template falls through to the default.
  const wanted = o.templateId ?? note.templateId;
  const template =
    (wanted ? await d.templates.spec(note.workspaceId, wanted) : null) ??
    (await d.templates.forNote(note.workspaceId, note.id));
  const names = await repos.speakers.namesOf(note.id);
  const segments = await repos.notes.segmentsOf(note.id);
  const transcript = segments.slice(0, o.lines ?? segments.length).map((s) => ({
    speaker: names.get(s.speaker)?.name ?? s.speaker,
    text: s.text,
    at: toTimestamp(s.startSec),
  }));
  const people = (note.participants ?? []).map((p) => p.name).filter(Boolean);
  const input: SummaryInput = {
    title: note.title,
    userWrittenNote: note.userWrittenNote,
    transcript,
    template,
    // A translation target outranks the template's language, which outranks the workspace's summary language.
    language: ai.translationLanguage ?? template.language ?? ai.outputLanguage,
    meetingLanguage: note.inputLanguage,
    noteId: note.id,
    meetingAt: note.createdAt,
    people,
  };
  return { input, names };
}
