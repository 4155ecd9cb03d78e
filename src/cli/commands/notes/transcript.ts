// notula notes transcript <id> [edit|split|delete LINE]
import type { Command } from "commander";
import { listOf, type ListResult } from "../../lib/json-output.js";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import { printTable } from "../../lib/output.js";
import type { TranscriptLineDto } from "../../../shared/schemas/transcript-edits.js";

const ACTIONS = ["edit", "split", "delete"] as const;

export const define = (notes: Command) =>
  notes
    .command("transcript")
    .description("A note's transcript lines with their ids, or correct one: edit, split or delete LINE")
    .argument("<id>", "note id")
    .argument("[action]", ACTIONS.join(", "))
    .argument("[line]", "the line's id (seg_…), as the list shows it")
    .option("--text <text>", "edit: the line's words as they were said")
    .option("--speaker <name>", "edit: who said it (a speaker's name or label, or a new name)")
    .option("--from-here-on", "edit: give the following lines of the same speaker to --speaker too")
    .option("--at-word <n>", "split: after this many words")
    .option("--if-version <n>", "only if the line is still at this version, as you read it (default: as it is now)")
    .addHelpText(
      "after",
      [
        "\nExamples:",
        "  notula notes transcript note_…",
        '  notula notes transcript note_… edit seg_… --text "John Snow will send the menu."',
        "  notula notes transcript note_… edit seg_… --speaker Tom --from-here-on",
        "  notula notes transcript note_… split seg_… --at-word 5",
        "  notula notes transcript note_… delete seg_…",
      ].join("\n"),
    );

export interface Input {
  id: string;
  action?: string;
  line?: string;
  text?: string;
  speaker?: string;
  fromHereOn?: boolean;
  atWord?: string;
  ifVersion?: string;
}

const whole = (flag: string, v: string) => {
  if (!/^\d{1,9}$/.test(v)) throw new CliError(`${flag} must be a whole number, got "${v}".`, EXIT.usage);
  return Number(v);
};

export async function run(f: Input, { api }: Deps): Promise<ListResult<TranscriptLineDto>> {
  const lines = async () => (await api.call("getNote", { params: { id: f.id } })).note.transcripts;
  if (f.action === undefined) return { items: await lines() };
  if (!(ACTIONS as readonly string[]).includes(f.action))
    throw new CliError(`Unknown action "${f.action}": use ${ACTIONS.join(", ")}.`, EXIT.usage);
  if (!f.line) throw new CliError(`Name the line to ${f.action}: transcript ID ${f.action} LINE.`, EXIT.usage);
  if (f.action === "edit" && f.text === undefined && f.speaker === undefined)
    throw new CliError("Give --text, --speaker, or both.", EXIT.usage);
  if (f.action === "split" && f.atWord === undefined) throw new CliError("Give --at-word N.", EXIT.usage);
  // The version as it is now, unless the caller says which one they read.
  let version: number;
  if (f.ifVersion !== undefined) version = whole("--if-version", f.ifVersion);
  else {
    const found = (await lines()).find((l) => l.id === f.line);
    if (!found) throw new CliError(`Note ${f.id} has no line ${f.line}.`, EXIT.notFound);
    version = found.version;
  }
  const params = { id: f.id, segmentId: f.line };
  if (f.action === "delete") {
    await api.call("deleteTranscriptLine", { params, query: { version: String(version) } });
    return { items: [] };
  }
  if (f.action === "split")
    return listOf(
      "lines",
      await api.call("splitTranscriptLine", { params, body: { version, atWord: whole("--at-word", f.atWord!) } }),
    );
  return listOf(
    "lines",
    await api.call("updateTranscriptLine", {
      params,
      body: {
        version,
        ...(f.text !== undefined ? { text: f.text } : {}),
        ...(f.speaker !== undefined ? { speaker: f.speaker } : {}),
        ...(f.fromHereOn ? { fromHereOn: true } : {}),
      },
    }),
  );
}

export const render = ({ items }: ListResult<TranscriptLineDto>) =>
  printTable(
    ["LINE", "AT", "SPEAKER", "TEXT"],
    items.map((l) => [l.id, l.startTimestamp, l.speaker, l.text]),
  );
