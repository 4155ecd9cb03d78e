// A note's task lines, as summaries, models and people write them in Markdown:
//   - [ ] Send the cost report by Wednesday. (owner: David) (due: 2026-12-09) [00:42](/notes/nt_1#t=42)
// read into their parts, and written back with a part changed (ticked, given to
// someone else, due another day), every other character of the line kept.

export interface TaskLine {
  /** The line's index in the Markdown. */
  line: number;
  done: boolean;
  /** The line after its checkbox, as written (marks and citations in it). */
  body: string;
  /** The task's words, without its marks and citations. */
  text: string;
  owner: string | null;
  due: string | null;
  /** Seconds of the first moment it cites, or null. */
  citedSec: number | null;
  /** Its words, normalised: the same task said again has the same key. */
  key: string;
}

const TASK = /^(\s*[-*] \[)([ xX])(\]\s+)(.*)$/;
const OWNER = /\s*\(owners?:\s*([^()\n]*)\)/i;
const DUE = /\s*\(due:\s*(\d{4}-\d{2}-\d{2})\)/i;
const CITATION = /\s*\[\d{1,3}(?::\d{2}){1,2}\]\((?:\/notes\/[^)#\s]+)?#t=(\d{1,7})\)/g;

/** The words of a task, as compared across versions of a note: case, punctuation and spacing aside. */
export const taskKey = (text: string): string => (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).join(" ");

/** Every task line of the Markdown, in order. */
export function taskLinesOf(markdown: string): TaskLine[] {
  const out: TaskLine[] = [];
  for (const [i, raw] of markdown.split("\n").entries()) {
    const m = TASK.exec(raw);
    if (!m) continue;
    const body = m[4];
    const cited = [...body.matchAll(CITATION)].map((c) => Number(c[1]));
    const text = body.replace(CITATION, "").replace(OWNER, "").replace(DUE, "").trim();
    if (!text) continue;
    out.push({
      line: i,
      done: m[2] !== " ",
      body: body.trim(),
      text,
      owner: OWNER.exec(body)?.[1]?.trim() || null,
      due: DUE.exec(body)?.[1] ?? null,
      citedSec: cited[0] ?? null,
      key: taskKey(text),
    });
  }
  return out;
}

export interface TaskState {
  done: boolean;
  owner: string | null;
  due: string | null;
}

/**
 * The Markdown with the task lines whose keys `states` holds written as those states
 * say: ticked or not, its owner mark and its due mark set, changed or taken away.
 * Everything else on the line (its words, its citations) stays as it was.
 */
export function withTaskStates(markdown: string, states: ReadonlyMap<string, TaskState>): string {
  const lines = markdown.split("\n");
  for (const t of taskLinesOf(markdown)) {
    const want = states.get(t.key);
    if (!want) continue;
    const m = TASK.exec(lines[t.line])!;
    const citations = [...m[4].matchAll(CITATION)].map((c) => c[0].trim());
    const marks = `${want.owner ? ` (owner: ${want.owner})` : ""}${want.due ? ` (due: ${want.due})` : ""}`;
    lines[t.line] =
      `${m[1]}${want.done ? "x" : " "}${m[3]}${t.text}${marks}${citations.length ? ` ${citations.join(" ")}` : ""}`;
  }
  return lines.join("\n");
}
