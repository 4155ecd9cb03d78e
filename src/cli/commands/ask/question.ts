// notula ask "<question>": an answer from your meetings, streamed to the terminal as it
// is written, then the moments it cites with links; under --json, the answer and its
// citations as one object.
import type { Command } from "commander";
import { AskBody, type AskAnswerDto } from "../../../shared/schemas/ask.js";
import { checkFlags } from "../../lib/check-flags.js";
import type { Deps } from "../../lib/command.js";
import { collect } from "../../lib/context.js";
import { CliError } from "../../exit.js";
import { info } from "../../lib/output.js";
import { toTimestamp } from "../../../core/transcript-time.js";

export const define = (program: Command) =>
  program
    .command("ask")
    .description("Ask your meetings a question: an answer that cites the moments it comes from")
    .argument("<question>", 'what to ask, e.g. "what did we decide about pricing last week?"')
    .option("--note <id>", "ask this meeting alone")
    .option("--folder <id>", "in this folder (repeat for any of several)", collect)
    .option("--since <date>", "meetings from this date on (ISO 8601)")
    .option("--until <date>", "meetings before this date (ISO 8601)")
    .option("--participant <email>", "meetings with this participant")
    .option("--thread <id>", "a follow-up in this thread (printed after each answer)")
    .addHelpText(
      "after",
      '\nExamples:\n  notula ask "what did we decide about the Lisbon office?"\n  notula ask "and the budget?" --thread ask_…\n  notula ask "who owns the launch?" --note note_… --json\n\nTime words in the question (today, last week, since 2026-03-01) narrow the dates too.',
    );

export interface Input {
  question: string;
  note?: string;
  folder?: string[];
  since?: string;
  until?: string;
  participant?: string;
  thread?: string;
}

const FLAG_OF: Record<string, string> = {
  question: "the question",
  noteId: "--note",
  folderIds: "--folder",
  fromDate: "--since",
  toDate: "--until",
  participantEmail: "--participant",
  threadId: "--thread",
};

const bodyOf = (f: Input) => ({
  question: f.question,
  noteId: f.note,
  folderIds: f.folder?.length ? f.folder : undefined,
  fromDate: f.since,
  toDate: f.until,
  participantEmail: f.participant,
  threadId: f.thread,
});

export const validate = (f: Input) => checkFlags(AskBody, bodyOf(f), FLAG_OF);

/** Streams the answer to standard output (not under --json) and returns it whole. */
export async function run(f: Input, { api, json }: Deps): Promise<AskAnswerDto> {
  let done: AskAnswerDto | null = null;
  let failed: string | null = null;
  const body = Object.fromEntries(Object.entries(bodyOf(f)).filter(([, v]) => v !== undefined));
  await api.events("ask", { body } as never, (event, data) => {
    if (event === "text" && !json) process.stdout.write((data as { text: string }).text);
    else if (event === "queued" && !json)
      info(`Waiting for the local model: ${(data as { ahead: number }).ahead} ahead…`);
    else if (event === "done") done = data as AskAnswerDto;
    else if (event === "error") failed = (data as { message: string }).message;
  });
  if (!done) throw new CliError(`The answer ended before it was finished: ${failed ?? "the server closed the stream"}`);
  return done;
}

/** After the streamed answer: the moments it cites, with links, and how to follow up. */
export function render(r: AskAnswerDto) {
  process.stdout.write("\n");
  if (r.citations.length) {
    process.stdout.write("\nSources:\n");
    r.citations.forEach((c, i) => {
      const at = c.startSec !== null ? `, ${toTimestamp(c.startSec)}` : "";
      process.stdout.write(
        `[${i + 1}] ${c.title}${at}${c.speaker ? `, ${c.speaker}` : ""}: "${c.quote}"\n    ${c.url}\n`,
      );
    });
  }
  if (r.partial) info("Only part of what was found could be read: the rest did not fit the model.");
  info(`Thread ${r.threadId}: ask a follow-up with --thread ${r.threadId}`);
  if (r.error) throw new CliError(`The answer ended early: ${r.error}`);
}
