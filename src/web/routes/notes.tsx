// The notes pages: the list, one note (read, listen, edit, share, delete, reprocess),
// and a new note from text (the upload and the recorder are in browser-audio.tsx).
import { engineCaveat } from "../../ai/transcription/engine-notes.js";
import { isVisibility } from "../../core/note-vocabulary.js";
import { Hono } from "hono";
import { BadRequestError } from "../../core/errors.js";
import type { AudioStore } from "../../storage/audio-store.js";
import type { Services } from "../../services/index.js";
import { NOTE_TEXT_MAX, NoteListQuery } from "../../shared/schemas/notes.js";
import { AUDIO_EXTENSIONS } from "../../shared/vocabulary.js";
import { describeZodError } from "../../http/context.js";
import { csrfOk, requireViewer, viewerOf, type WebEnv } from "../context.js";
import { DeleteNotePage, NotePage } from "../pages/note.js";
import { ConfirmPublicPage } from "../pages/confirm-public.js";
import { needsPublicConfirmation, publicWarning } from "../visibility.js";
import { NewNotePage } from "../pages/new-note.js";
import { NotesListPage, type ListFilters } from "../pages/notes-list.js";
import { meetingPanel } from "../pages/note-meeting.js";
import { parsePersonLine } from "../../shared/person-line.js";
import { participantFrom } from "../../services/note-meeting.js";
import { statusLabel } from "../format.js";
import { textField, textFields } from "../form-fields.js";
import { render } from "../render.js";
import { workspacePolicy } from "../../core/access.js";
import { formExpired } from "../form-expired.js";
import { createFlash } from "../flash.js";
import { noteActions } from "./note-actions.js";
import { attachment, EXPORT_FORMATS, EXPORTS, exportFileName, type ExportFormat } from "../../shared/export/index.js";
import { noteUrl } from "../../shared/note-links.js";
import { audioResponse } from "./audio-response.js";

const PAGE = 25;

/** What the Share panel's actions say once done (routes/note-actions.tsx). */
const SHARED: Record<string, string> = {
  public: "Anyone with the link can read it now.",
  stop: "The link no longer works.",
  options: "Saved what the link shows.",
};

export function notePages(
  services: Services,
  opts: { audioStore: AudioStore; maxUploadBytes: number; publicUrl: string },
) {
  const app = new Hono<WebEnv>();
  const flash = createFlash(services, opts.publicUrl);
  app.use("/notes", requireViewer);
  app.use("/notes/*", requireViewer);

  const folderChoices = (c: Parameters<typeof viewerOf>[0]) => services.folders.choices(viewerOf(c).principal);
  app.get("/notes", async (c) => {
    const viewer = viewerOf(c);
    const q = c.req.query();
    const filters: ListFilters = {
      search: q.search || undefined,
      said: q.said?.trim() || undefined,
      folderIds: q.folderIds || undefined,
      status: q.status || undefined,
      fromDate: q.fromDate || undefined,
      toDate: q.toDate || undefined,
      participantEmail: q.participantEmail || undefined,
    };
    const parsed = NoteListQuery.safeParse({ ...filters, said: undefined, limit: String(PAGE), offset: q.offset });
    const folders = await folderChoices(c);
    const { notice } = await flash.take(c);
    /** The list page: an empty list and no paging unless given. */
    const listPage = (shown: Partial<Parameters<typeof NotesListPage>[0]>, status?: 400) =>
      render(
        c,
        <NotesListPage
          viewer={viewer}
          filters={filters}
          folders={folders}
          notes={[]}
          hits={null}
          previous={null}
          next={null}
          notice={notice}
          {...shown}
        />,
        status,
      );
    if (!parsed.success) return listPage({ error: describeZodError(parsed.error) }, 400);
    if (filters.said) {
      let hits;
      let suggestion: string | null = null;
      try {
        const found = await services.search.search(viewer.principal, {
          q: filters.said.slice(0, 500),
          mode: "hybrid",
          limit: 50,
        });
        hits = found.results;
        suggestion = found.suggestion;
      } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        // The page's field is not called q: the reason alone.
        return listPage({ hits: [], error: err.message.replace(/^q: /, "") }, 400);
      }
      return listPage({ hits, suggestion });
    }
    const page = await services.notes.briefs(viewer.principal, parsed.data);
    const offset = parsed.data.offset;
    // The first-run screen tells an admin how notes get written, not only extracted.
    const empty = page.items.length === 0 && offset === 0;
    const effective =
      empty && workspacePolicy.configureAi(viewer.principal)
        ? (await services.aiConfig.get(viewer.principal)).effective
        : null;
    return listPage({
      extractsOnly: effective?.summary.startsWith("extractive") ?? false,
      speechCaveat: effective ? engineCaveat(effective.transcription) : null,
      // The next meetings, on the list's first page: where a person looks before a meeting.
      comingUp: offset === 0 ? await services.calendars.comingUp(viewer.principal) : undefined,
      notes: page.items,
      previous: offset > 0 ? Math.max(0, offset - PAGE) : null,
      next: page.pagination.nextOffset,
    });
  });

  /** Why recordings cannot be transcribed in this workspace now, or null when they can. */
  const speechProblem = (c: Parameters<typeof viewerOf>[0]) =>
    services.aiConfig.transcriptionProblem(viewerOf(c).principal.workspaceId);

  // The quick switcher's answers (Ctrl/Cmd-K): notes whose title holds the words, newest first.
  app.get("/notes/titles", async (c) => {
    const q = (c.req.query("q") ?? "").trim().slice(0, 200);
    if (!q) return c.json({ notes: [] });
    const parsed = NoteListQuery.safeParse({ search: q, limit: "8" });
    if (!parsed.success) return c.json({ notes: [] });
    const { items } = await services.notes.briefs(viewerOf(c).principal, parsed.data);
    return c.json({ notes: items.map((n) => ({ id: n.id, title: n.title, createdAt: n.createdAt })) });
  });

  app.get("/notes/new", async (c) => {
    // From "Coming up": the meeting being recorded (one of the person's own, else none).
    const eventId = c.req.query("event");
    const meeting = eventId ? await services.calendars.event(viewerOf(c).principal, eventId.slice(0, 200)) : null;
    return render(
      c,
      <NewNotePage
        viewer={viewerOf(c)}
        folders={await folderChoices(c)}
        extensions={AUDIO_EXTENSIONS}
        maxBytes={opts.maxUploadBytes}
        speechProblem={await speechProblem(c)}
        meeting={meeting ? { id: meeting.id, title: meeting.title } : undefined}
        people={await services.people.forPerson(viewerOf(c).principal)}
      />,
    );
  });

  app.post("/notes/new-text", async (c) => {
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const viewer = viewerOf(c);
    const title = textField(f, "title").trim();
    if (!title || title.length > 500)
      return render(
        c,
        <NewNotePage
          viewer={viewer}
          folders={await folderChoices(c)}
          extensions={AUDIO_EXTENSIONS}
          maxBytes={opts.maxUploadBytes}
          error="The note needs a title of 1 to 500 characters."
          text={textField(f, "userWrittenNote")}
        />,
        400,
      );
    const note = await services.notes.create(viewer.principal, {
      title,
      userWrittenNote: textField(f, "userWrittenNote").slice(0, 500000),
      participants: textFields(f, "participant")
        .map(parsePersonLine)
        .filter((x) => x !== null)
        .slice(0, 500)
        .map(participantFrom),
    });
    return c.redirect(`/notes/${encodeURIComponent(note.id)}`, 303);
  });

  /** The names of the private folders among these (those the person can see). */
  const privateFolderNames = async (p: Parameters<typeof services.folders.list>[0], ids: string[]) => {
    const wanted = new Set(ids);
    return (await services.folders.list(p)).filter((x) => x.isPrivate && wanted.has(x.id)).map((x) => x.name);
  };

  /** The open items the previous meeting of the note's series left, with that meeting. */
  const openBefore = async (p: Parameters<typeof services.series.neighbours>[0], id: string) => {
    const previous = (await services.series.neighbours(p, id))?.previous;
    if (!previous) return null;
    const open = await services.actionItems.list(p, { noteId: previous.id, status: "open", limit: 50, offset: 0 });
    return { note: previous, items: open.items };
  };

  const notePage = async (
    c: Parameters<typeof viewerOf>[0],
    id: string,
    extra: { error?: string; notice?: string } = {},
    status: 200 | 400 | 409 = 200,
  ) => {
    const viewer = viewerOf(c);
    const { note, share, hasRecording, may, mine } = await services.notes.view(viewer.principal, id);
    // Between Stop and the pieces being joined, the recording is on its way, not missing.
    const recording = hasRecording ? await services.notes.recording(viewer.principal, id) : null;
    const audio = !recording
      ? null
      : (await opts.audioStore.exists(recording.key))
        ? "ready"
        : // While the meeting is recorded the status says so; once it stops, the pieces are being joined.
          note.status === "recording" || note.status === "idle"
          ? null
          : "preparing";
    const privateFolders = await privateFolderNames(
      viewer.principal,
      note.tags.map((t) => t.id),
    );
    return render(
      c,
      <NotePage
        viewer={viewer}
        note={note}
        may={may}
        folders={await folderChoices(c)}
        templates={(await services.templates.list(viewer.principal)).map((t) => ({ id: t.id, name: t.name }))}
        audio={audio}
        privateFolders={privateFolders}
        mine={mine}
        shareTranscript={share ? share.includeTranscript : null}
        shareRecording={share ? share.includeRecording : null}
        actionItems={await services.actionItems.forNote(note)}
        history={
          may.edit ? (await services.notes.history(viewer.principal, id, { limit: 20, offset: 0 })).items : undefined
        }
        openBefore={await openBefore(viewer.principal, id)}
        meeting={meetingPanel({
          note,
          csrf: viewer.csrf,
          zone: viewer.timeZone,
          canEdit: may.edit,
          series: await services.series.neighbours(viewer.principal, id),
          suggestions: may.edit ? await services.people.forPerson(viewer.principal) : [],
          nearby:
            may.edit && !note.calendarEvent?.title
              ? await services.calendars.around(viewer.principal, Date.parse(note.createdAt))
              : [],
        })}
        speechProblem={note.status === "recorded-not-summarized" && hasRecording ? await speechProblem(c) : null}
        canEnhance={
          note.transcripts.length > 0 ||
          hasRecording ||
          (note.userWrittenNote.trim() !== "" &&
            (await services.aiConfig.get(viewer.principal)).effective.summary !== "extractive")
        }
        {...extra}
      />,
      status,
    );
  };

  app.get("/notes/:id", async (c) =>
    notePage(c, c.req.param("id"), {
      notice: c.req.query("saved") ? "Saved." : (SHARED[c.req.query("shared") ?? ""] ?? (await flash.take(c)).notice),
    }),
  );

  app.get("/notes/:id/status", async (c) => {
    const note = await services.notes.get(viewerOf(c).principal, c.req.param("id"));
    return c.json({ status: note.status, label: statusLabel(note), segments: note.transcripts.length });
  });

  // The download menu's files: the same formats, and the same bytes, as GET /v1/notes/{id}/export.
  app.get("/notes/:id/export", async (c) => {
    const format = c.req.query("format") ?? "md";
    if (!(EXPORT_FORMATS as readonly string[]).includes(format))
      return c.text(`No such format "${format}": one of ${EXPORT_FORMATS.join(", ")}.`, 400);
    const note = await services.notes.get(viewerOf(c).principal, c.req.param("id"));
    const out = EXPORTS[format as ExportFormat];
    c.header("Content-Type", out.contentType);
    c.header("Content-Disposition", attachment(exportFileName(note, format)));
    return c.body(out.write(note, noteUrl(opts.publicUrl, note.id)));
  });

  app.get("/notes/:id/audio", async (c) =>
    audioResponse(c, opts.audioStore, await services.notes.recording(viewerOf(c).principal, c.req.param("id"))),
  );

  app.post("/notes/:id", async (c) => {
    const id = c.req.param("id");
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const viewer = viewerOf(c);
    const title = textField(f, "title").trim();
    if (!title || title.length > 500) return notePage(c, id, { error: "The title needs 1 to 500 characters." }, 400);
    const visibility = textField(f, "visibility");
    if (!isVisibility(visibility)) return notePage(c, id, { error: "Choose a visibility." }, 400);
    // The form offers only the folders this member can see: a note's place in a private
    // folder they do not belong to is kept, not cleared by a form that never showed it.
    const offered = new Set((await folderChoices(c)).map((x) => x.id));
    const { note: current, may, share } = await services.notes.view(viewer.principal, id);
    const unseen = current.tags.map((t) => t.id).filter((t) => !offered.has(t));
    const folderIds = [...unseen, ...textFields(f, "folderIds").filter((x) => offered.has(x))];
    const privateFolders = await privateFolderNames(viewer.principal, folderIds);
    if (may.widen && needsPublicConfirmation(current.visibility, visibility, privateFolders) && !f.confirmPublic)
      return render(
        c,
        <ConfirmPublicPage
          viewer={viewer}
          noteId={id}
          title={current.title}
          warning={publicWarning(privateFolders)}
          fields={Object.keys(f)
            .map((k) => [k, textFields(f, k)] as [string, string[]])
            .filter(([, values]) => values.length > 0)}
        />,
      );
    // The summary and enhanced note count as a person's edit only when they were changed.
    const edited = (field: "summary" | "enhancedNote") => {
      if (!(field in f)) return undefined;
      const text = textField(f, field).replace(/\r\n/g, "\n").slice(0, NOTE_TEXT_MAX);
      return text === current[field] ? undefined : text;
    };
    await services.notes.update(viewer.principal, id, {
      title,
      // The form shows the visibility to everyone, but only those who may change it send a change.
      visibility: may.widen ? visibility : undefined,
      userWrittenNote: textField(f, "userWrittenNote").slice(0, NOTE_TEXT_MAX),
      summary: edited("summary"),
      enhancedNote: edited("enhancedNote"),
      folderIds,
    });
    // The checkbox is on the form only while the note is public: a note made public now keeps the default.
    if (may.widen && visibility === "public" && textField(f, "shareShown") === "1")
      await services.notes.setShareShows(viewer.principal, id, {
        transcript: textField(f, "shareTranscript") === "1",
        recording: share?.includeRecording ?? false,
      });
    return c.redirect(`/notes/${encodeURIComponent(id)}?saved=1`, 303);
  });

  noteActions(app, services, notePage, privateFolderNames);

  app.get("/notes/:id/delete", async (c) =>
    render(
      c,
      <DeleteNotePage viewer={viewerOf(c)} note={await services.notes.get(viewerOf(c).principal, c.req.param("id"))} />,
    ),
  );

  app.post("/notes/:id/delete", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return formExpired(c);
    const { title } = await services.notes.get(viewerOf(c).principal, c.req.param("id"));
    await services.notes.delete(viewerOf(c).principal, c.req.param("id"));
    return flash.redirect(c, "/notes", { notice: `“${title}” is deleted.` });
  });

  return app;
}
