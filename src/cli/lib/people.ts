// Who was there and who is on which channel, on upload and record: --participant
// ("Name <email>", an address or a name, repeated) and --channels me,others.
import { parsePersonLine } from "../../shared/person-line.js";
import { CliError, EXIT } from "../exit.js";

export const PARTICIPANT_HELP = "who was there: 'Name <email>', an address or a name (repeat it for each)";

/** Collects a repeated option's values (commander's reducer). */
export const collect = (value: string, all: string[] = []) => [...all, value];

export const participantsOf = (lines: string[] | undefined) =>
  lines?.length ? lines.map(parsePersonLine).filter((x) => x !== null) : undefined;

export const CHANNELS_HELP = "its two channels are you (the first) and the others: who said what";

/** --channels: only "me,others" (channel 0 is the person recording). */
export function channelsOf(value: string | undefined): ["me", "others"] | undefined {
  if (value === undefined) return undefined;
  if (value.replace(/\s/g, "") !== "me,others")
    throw new CliError(`--channels takes me,others (your channel first), not "${value}".`, EXIT.usage);
  return ["me", "others"];
}
