// notula upload <file>: the whole from-audio flow in one command.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import { AUDIO_EXTENSIONS } from "../../../shared/vocabulary.js";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import { waitForNote } from "../../lib/wait.js";
import { durationOf, put } from "./transfer.js";
import { channelsOf, CHANNELS_HELP, collect, participantsOf, PARTICIPANT_HELP } from "../../lib/people.js";

export const define = (program: Command) =>
  program
    .command("upload")
    .description(`Upload a recording and make a note of it (${AUDIO_EXTENSIONS.join(", ")})`)
    .argument("<file>", "the recording")
    .option("--title <title>", "title of the note")
    .option("--folder <id>", "file the note in this folder")
    .option("--calendar-event <id>", "the calendar event it belongs to")
    .option("--participant <person>", PARTICIPANT_HELP, collect)
    .option("--channels <me,others>", CHANNELS_HELP)
    .option("--duration <seconds>", "its length, when ffprobe is not installed")
    .option("--wait", "follow processing until the note is done")
    .option(
      "--idempotency-key <key>",
      "sent again, makes no second note (default: the file's SHA-256 with the note's title, folder, event, people and channels)",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  notula upload standup.m4a --title 'Standup' --wait\n  notula upload interview.mp3 --participant 'Ana Silva <ana@acme.example>' --participant Ben",
    );

export interface Input {
  file: string;
  title?: string;
  folder?: string;
  calendarEvent?: string;
  participant?: string[];
  channels?: string;
  duration?: string;
  wait?: boolean;
  idempotencyKey?: string;
}

const extensionOf = (file: string) => path.extname(file).slice(1).toLowerCase();

export function validate(f: Input) {
  if (!fs.existsSync(f.file)) throw new CliError(`No file ${f.file}.`, EXIT.usage);
  channelsOf(f.channels);
  if (!(AUDIO_EXTENSIONS as readonly string[]).includes(extensionOf(f.file)))
    throw new CliError(`${f.file}: the extension must be one of ${AUDIO_EXTENSIONS.join(", ")}.`, EXIT.usage);
}

/** The note made, as it stands (with --wait, once it is done). */
export async function run(f: Input, deps: Deps): Promise<NoteDto> {
  validate(f);
  const duration = f.duration ? Number(f.duration) : await durationOf(f.file);
  if (!Number.isFinite(duration) || duration <= 0)
    throw new CliError("--duration must be a positive number of seconds.", EXIT.usage);
  const url = await deps.api.call("generateUploadUrl", {
    body: { fileExtension: extensionOf(f.file), duration: Math.ceil(duration) },
  });
  await put(url.presignedUrl, f.file, url.contentType, fs.statSync(f.file).size);
  const note = {
    // Without --title, the server names the note for what was said ("Launch date and cloud costs").
    title: f.title,
    folderId: f.folder,
    calendarEventId: f.calendarEvent,
    participants: participantsOf(f.participant),
    channels: channelsOf(f.channels),
  };
  // The same file sent again for the same note (a script's retry) makes no second note.
  const key = f.idempotencyKey ?? `upload-${await sha256Of(f.file, JSON.stringify(note))}`;
  const { noteId } = await deps.api.call("createNoteFromAudio", {
    body: { audioUrl: url.audioUrl, ...note },
    headers: { "idempotency-key": key },
  });
  if (!f.wait) return (await deps.api.call("getNote", { params: { id: noteId } })).note;
  try {
    return await waitForNote(deps, noteId);
  } catch (err) {
    // The note's id still goes to stdout: the recording is kept and can be processed again.
    if (!deps.json) process.stdout.write(`${noteId}\n`);
    throw err;
  }
}

export const render = (note: NoteDto) => process.stdout.write(`${note.id}\n`);

/** SHA-256 of the file's bytes and then `also`, streamed. */
async function sha256Of(file: string, also: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.update(also).digest("hex").slice(0, 40);
}
