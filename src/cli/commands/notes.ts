// notula notes list|get|create|update|delete|export|reprocess|search
import type { Command } from "commander";
import type { NoteDto } from "../../shared/schemas/notes.js";
import { CliError, EXIT } from "../exit.js";
import { NOTE_KINDS, NOTE_SORT_FIELDS, NOTE_STATUSES } from "../../shared/vocabulary.js";
import type { ApiRequest, ApiResponse } from "../lib/api-types.js";
import { apiAction, collect, confirm, connect, readInput, required, type CommandContext } from "../lib/context.js";
import { info, printJson, printTable, shortDate, truncate } from "../lib/output.js";
import { exportFileName, noteToMarkdown, renderNote } from "./notes-render.js";
import { waitForNote } from "../lib/wait.js";

interface ListFlags {
  limit?: string;
  offset?: string;
  sort?: string;
  order?: string;
  status?: string;
  kind?: string;
  search?: string;
  createdBy?: string;
  from?: string;
  to?: string;
  folder?: string[];
  participant?: string;
  all?: boolean;
}

/** The list filters as GET /v1/notes takes them. */
function listQuery(
  f: ListFlags,
  overrides: { limit?: string; offset?: string } = {},
): ApiRequest<"listNotes">["query"] {
  return {
    limit: overrides.limit ?? f.limit,
    offset: overrides.offset ?? f.offset,
    sortBy: f.sort as NonNullable<ApiRequest<"listNotes">["query"]>["sortBy"],
    sortOrder: f.order as NonNullable<ApiRequest<"listNotes">["query"]>["sortOrder"],
    status: f.status as NoteDto["status"] | undefined,
    kind: f.kind as NoteDto["kind"] | undefined,
    search: f.search,
    createdBy: f.createdBy,
    fromDate: f.from,
    toDate: f.to,
    folderIds: f.folder?.length ? f.folder : undefined,
    participantEmail: f.participant,
  };
}

/** Every note the filters match, page by page (100 at a time). */
async function* walk(ctx: CommandContext, f: ListFlags) {
  let offset: number | null = Number(f.offset ?? 0);
  while (offset !== null) {
    const page: ApiResponse<"listNotes"> = await ctx.api.call("listNotes", {
      query: listQuery(f, { limit: "100", offset: String(offset) }),
    });
    yield page.items;
    offset = page.pagination.nextOffset;
  }
}

function listOptions(cmd: Command) {
  return cmd
    .option("--limit <n>", "notes per page, 1–100 (default 20)")
    .option("--offset <n>", "notes to skip")
    .option("--sort <field>", NOTE_SORT_FIELDS.join(" | "))
    .option("--order <dir>", "asc | desc")
    .option("--status <status>", NOTE_STATUSES.join(" | "))
    .option("--kind <kind>", NOTE_KINDS.join(" | "))
    .option(
      "--search <text>",
      "words of the title only (the interface's list filter); to find what was said, use `notula notes search`",
    )
    .option("--created-by <userId>", "creator's user id")
    .option("--from <date>", "created at or after (ISO 8601)")
    .option("--to <date>", "created before (ISO 8601)")
    .option("--folder <id>", "in this folder (repeat, or comma-separate, for any of several)", collect)
    .option("--participant <email>", "with this participant");
}

function printNotes(items: NoteDto[]) {
  printTable(
    ["ID", "TITLE", "STATUS", "CREATED", "FOLDERS"],
    items.map((n) => [
      n.id,
      truncate(n.title, 48),
      n.status,
      shortDate(n.createdAt),
      n.tags.map((t) => t.name).join(", "),
    ]),
  );
}

export function registerNotes(program: Command) {
  const notes = program.command("notes").description("Meeting notes");

  listOptions(notes.command("list").description("List notes (newest first)"))
    .option("--all", "walk every page")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes list --search budget --from 2026-01-01\n  notula notes list --all --json | jq '.items | length'",
    )
    .action(async (f: ListFlags, cmd: Command) => {
      const ctx = await connect(cmd);
      if (f.all) {
        const items: NoteDto[] = [];
        for await (const page of walk(ctx, f)) items.push(...page);
        if (ctx.json) printJson({ items, pagination: { limit: 100, nextOffset: null, isLast: true } });
        else printNotes(items);
        return;
      }
      const page = await ctx.api.call("listNotes", { query: listQuery(f) });
      if (ctx.json) return printJson(page);
      printNotes(page.items);
      if (!page.pagination.isLast) info(`More notes follow: --offset ${page.pagination.nextOffset}, or --all.`);
    });

  notes
    .command("get")
    .description("Show a note: summary, enhanced note, your notes and the transcript")
    .argument("<id>", "note id")
    .option(
      "--format <format>",
      "text (default: wrapped to the terminal, local times) | markdown (as `export` writes it) | json",
    )
    .option("--no-pager", "never page long output (a pager is used only at a terminal)")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes get note_abc\n  notula notes get note_abc --format markdown > standup.md\n  TZ=America/New_York notula notes get note_abc",
    )
    .action(async (id: string, f: { format?: string; pager: boolean }, cmd: Command) => {
      const format = f.format ?? (cmd.optsWithGlobals().json ? "json" : "text");
      if (!["text", "markdown", "json"].includes(format))
        throw new CliError(`--format: one of text, markdown, json; got "${format}".`, EXIT.usage);
      const ctx = await connect(cmd);
      const { note } = await ctx.api.call("getNote", { params: { id } });
      if (format === "json") return printJson({ note });
      const { page } = await import("../lib/pager.js");
      const width = process.stdout.isTTY ? Math.min(process.stdout.columns || 100, 120) : undefined;
      await page(format === "markdown" ? noteToMarkdown(note) : renderNote(note, { width }), { pager: f.pager });
    });

  notes
    .command("create")
    .description("Create a note from text")
    .option("--title <title>", "title")
    .option("--note-file <file>", "your notes in markdown, from a file or - for standard input")
    .option("--visibility <v>", "only-me | workspace | public (or private | shared)")
    .option("--folder <id>", "file it in this folder (repeatable)", collect)
    .addHelpText(
      "after",
      "\nExample:\n  echo '- budget approved' | notula notes create --title 'Board call' --note-file -",
    )
    .action(
      apiAction(
        async (ctx, f) => {
          const body: ApiRequest<"createNote">["body"] = {
            title: await required(f.title, "--title", "Title of the note"),
          };
          if (f.noteFile) body.userWrittenNote = await readInput(f.noteFile);
          if (f.visibility) body.visibility = f.visibility;
          if (f.folder) body.folderIds = f.folder;
          return ctx.api.call("createNote", { body });
        },
        ({ note }) => process.stdout.write(`${note.id}\n`),
      ),
    );

  notes
    .command("update")
    .description("Change a note's title, visibility, your notes or folders")
    .argument("<id>", "note id")
    .option("--title <title>", "new title")
    .option("--visibility <v>", "only-me | workspace | public (or private | shared)")
    .option("--note-file <file>", "replace your notes: a markdown file, or - for standard input")
    .option("--folder <id>", "the folders it is in, replacing the current ones (repeatable)", collect)
    .option("--no-folders", "take it out of every folder")
    .addHelpText("after", "\nExample:\n  notula notes update note_… --visibility private --note-file notes.md")
    .action(
      apiAction(
        async (ctx, id: string, f) => {
          const body: ApiRequest<"updateNote">["body"] = {};
          if (f.title) body.title = f.title;
          if (f.visibility) body.visibility = f.visibility;
          if (f.noteFile) body.userWrittenNote = await readInput(f.noteFile);
          if (f.folder) body.folderIds = f.folder;
          if (f.folders === false) body.folderIds = [];
          if (Object.keys(body).length === 0)
            throw new CliError(
              "Nothing to change: give --title, --visibility, --note-file, --folder or --no-folders.",
              EXIT.usage,
            );
          return ctx.api.call("updateNote", { params: { id }, body });
        },
        ({ note }) => info(`Updated ${note.id}.`),
      ),
    );

  notes
    .command("delete")
    .description("Delete a note")
    .argument("<id>", "note id")
    .option("-y, --yes", "do not ask")
    .action(
      apiAction(
        async (ctx, id: string, f) => {
          if (!f.yes) {
            const { note } = await ctx.api.call("getNote", { params: { id } });
            const lost = [
              note.transcripts.length ? "transcript" : "",
              note.summary ? "summary" : "",
              note.totalDurationSec ? "recording" : "",
            ].filter(Boolean);
            await confirm(
              `Delete "${note.title}" (${shortDate(note.createdAt)})?${lost.length ? ` Its ${lost.join(", ")} will be lost.` : ""} This cannot be undone.`,
              f.yes,
            );
          }
          return ctx.api.call("deleteNote", { params: { id } });
        },
        (_r, _ctx, id) => info(`Deleted ${id}.`),
      ),
    );

  notes
    .command("share")
    .description("Print a note's share link: anyone with it can read the note, signed out")
    .argument("<id>", "note id")
    .option("--make-public", "make the note public first (a link exists only while it is)")
    .addHelpText("after", "\nExample:\n  notula notes share note_… --make-public")
    .action(
      apiAction(
        async (ctx, id: string, f) => {
          const { note } = f.makePublic
            ? await ctx.api.call("updateNote", { params: { id }, body: { visibility: "public" } })
            : await ctx.api.call("getNote", { params: { id } });
          if (!note.shareUrl)
            throw new CliError(
              `Note ${id} is not public, so it has no share link; run again with --make-public.`,
              EXIT.usage,
            );
          return { id: note.id, shareUrl: note.shareUrl };
        },
        (r) => process.stdout.write(`${r.shareUrl}\n`),
      ),
    );

  notes
    .command("reprocess")
    .description("Transcribe and summarize a note again")
    .argument("<id>", "note id")
    .action(
      apiAction(
        (ctx, id: string) => ctx.api.call("reprocessNote", { params: { id } }),
        ({ note }) => info(`${note.id} is ${note.status}.`),
      ),
    );

  notes
    .command("enhance")
    .description("Write the enhanced note again with a template")
    .argument("<id>", "note id")
    .option("--template <id>", "template id (default: the note's folder default, else the workspace default)")
    .option("--wait", "follow it until the new note is written")
    .addHelpText("after", "\nExample:\n  notula notes enhance note_… --template tpl_builtin_sales-call --wait")
    .action(async (id: string, f: { template?: string; wait?: boolean }, cmd: Command) => {
      const ctx = await connect(cmd);
      const { note } = await ctx.api.call("enhanceNote", {
        params: { id },
        body: f.template ? { templateId: f.template } : {},
      });
      if (!f.wait) {
        if (ctx.json) printJson({ note });
        else info(`${note.id} is ${note.status}.`);
        return;
      }
      const done = await waitForNote(ctx, id);
      if (ctx.json) printJson({ note: done });
      else process.stdout.write(renderNote(done));
    });

  notes
    .command("speakers")
    .description("List a note's speakers with their talk time, or name one: speakers ID rename LABEL NAME")
    .argument("<id>", "note id")
    .argument("[action]", "rename")
    .argument("[label]", "the speaker label to name")
    .argument("[name...]", "the name to give it")
    .option("--email <email>", "name it after this participant or member")
    .option("--clear", "give the label back")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes speakers note_…\n  notula notes speakers note_… rename SPEAKER_00 Ana Silva\n  notula notes speakers note_… rename A --email ana@example.com",
    )
    .action(
      apiAction(
        async (
          ctx,
          id: string,
          action: string | undefined,
          label: string | undefined,
          name: string[],
          f: { email?: string; clear?: boolean },
        ) => {
          if (action === undefined) return ctx.api.call("listSpeakers", { params: { id } });
          if (action !== "rename")
            throw new CliError(`Unknown action "${action}": the only one is rename.`, EXIT.usage);
          if (!label)
            throw new CliError("Name the speaker label to rename: speakers ID rename LABEL NAME.", EXIT.usage);
          const given = name.join(" ").trim();
          if (!given && !f.email && !f.clear) throw new CliError("Give a name, --email or --clear.", EXIT.usage);
          return ctx.api.call("renameSpeaker", {
            params: { id },
            body: {
              label,
              ...(f.clear ? { name: null } : given ? { name: given } : {}),
              ...(f.email ? { email: f.email } : {}),
            },
          });
        },
        ({ speakers }) =>
          printTable(
            ["LABEL", "NAME", "EMAIL", "TALK TIME", "SEGMENTS"],
            speakers.map((s) => [
              s.label,
              s.name,
              s.email ?? "",
              `${Math.floor(s.talkTimeSec / 60)}:${String(s.talkTimeSec % 60).padStart(2, "0")}`,
              String(s.segments),
            ]),
          ),
      ),
    );

  notes
    .command("search")
    .description("Find what was written or said: each match with the note, when it was said and by whom")
    .argument("<query>", 'words (each found by prefix) and "quoted phrases"')
    .option("--mode <mode>", "hybrid (words and meaning) | fulltext | semantic", "hybrid")
    .option("--folder <id>", "in this folder (repeat for any of several)", collect)
    .option("--from <date>", "created at or after (ISO 8601)")
    .option("--to <date>", "created before (ISO 8601)")
    .option("--participant <email>", "with this participant")
    .option("--speaker <name>", "only what this speaker said")
    .option("--limit <n>", "notes per page, 1–50 (default 10)")
    .option("--cursor <cursor>", "the next page (printed after a full page)")
    .addHelpText(
      "after",
      '\nExamples:\n  notula notes search "next quarter" budget\n  notula notes search pricing --speaker Ana --from 2026-01-01 --json',
    )
    .action(
      apiAction(
        (
          ctx,
          query: string,
          f: {
            mode: string;
            folder?: string[];
            from?: string;
            to?: string;
            participant?: string;
            speaker?: string;
            limit?: string;
            cursor?: string;
          },
        ) =>
          ctx.api.call("search", {
            query: {
              q: query,
              mode: f.mode as "hybrid" | "fulltext" | "semantic",
              folderIds: f.folder?.length ? f.folder : undefined,
              fromDate: f.from,
              toDate: f.to,
              participantEmail: f.participant,
              speaker: f.speaker,
              limit: f.limit,
              cursor: f.cursor,
            },
          }),
        (r) => {
          printTable(
            ["NOTE", "AT", "SPEAKER", "TITLE", "MATCH"],
            r.results.flatMap((h) =>
              (h.matches.length ? h.matches : [null]).map((m) => [
                h.note.id,
                m?.startTimestamp ?? "",
                m?.speaker ?? "",
                truncate(h.note.title, 32),
                truncate(m?.text ?? "", 80),
              ]),
            ),
          );
          if (r.pagination.nextCursor) info(`More: --cursor ${r.pagination.nextCursor}`);
        },
      ),
    );

  listOptions(
    notes
      .command("export")
      .description("Write notes to files: markdown with front matter, or JSON")
      .argument("[id]", "one note; without it, every note the filters match"),
  )
    .option("--out <dir>", "directory to write to, or - for standard output", ".")
    .option("--format <format>", "md | json", "md")
    .addHelpText(
      "after",
      "\nExamples:\n  notula notes export note_… --out ./exports\n  notula notes export --folder fld_… --format json --out ./backup",
    )
    .action(async (id: string | undefined, f: ListFlags & { out: string; format: string }, cmd: Command) => {
      if (!["md", "json"].includes(f.format)) throw new CliError("--format must be md or json.", EXIT.usage);
      const ctx = await connect(cmd);
      const fs = await import("node:fs");
      const path = await import("node:path");
      const ids: string[] = [];
      if (id) ids.push(id);
      else for await (const page of walk(ctx, f)) ids.push(...page.map((n) => n.id));
      // --out - writes to standard output: the notes one after another, or one JSON document.
      if (f.out === "-") {
        const notes: NoteDto[] = [];
        for (const noteId of ids) {
          const { note } = await ctx.api.call("getNote", { params: { id: noteId } });
          if (f.format === "md") process.stdout.write((notes.length ? "\n" : "") + noteToMarkdown(note));
          notes.push(note);
        }
        if (f.format === "json") printJson({ notes });
        info(`Exported ${notes.length} note${notes.length === 1 ? "" : "s"}.`);
        return;
      }
      fs.mkdirSync(f.out, { recursive: true });
      const written: string[] = [];
      for (const noteId of ids) {
        const { note } = await ctx.api.call("getNote", { params: { id: noteId } });
        const file = path.join(f.out, exportFileName(note, f.format));
        fs.writeFileSync(file, f.format === "md" ? noteToMarkdown(note) : JSON.stringify({ note }, null, 2) + "\n");
        written.push(file);
      }
      if (ctx.json) printJson({ files: written });
      else {
        for (const file of written) process.stdout.write(file + "\n");
        info(`Exported ${written.length} note${written.length === 1 ? "" : "s"} to ${f.out}.`);
      }
    });
}
