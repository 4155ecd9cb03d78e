// --participant, on upload and record: "Name <email>", an address or a name, repeated.
import { parsePersonLine } from "../../shared/person-line.js";

export const PARTICIPANT_HELP = "who was there: 'Name <email>', an address or a name (repeat it for each)";

/** Collects a repeated option's values (commander's reducer). */
export const collect = (value: string, all: string[] = []) => [...all, value];

export const participantsOf = (lines: string[] | undefined) =>
  lines?.length ? lines.map(parsePersonLine).filter((x) => x !== null) : undefined;
