// A person's notes, woven into the enhanced note: each line once, as written, with what
// was said under it (by the time it was typed, and by its words), and their ACTION,
// TODO and @name lines as the note's tasks, never a second time from the transcript.
import { describe, expect, it } from "vitest";
import { extractiveSummary } from "../../src/ai/summarization/extractive.js";
import { ownLinesOf, weaveOwnNotes, wovenIn } from "../../src/ai/summarization/own-notes.js";
import { builtinTemplate } from "../../src/ai/templates/builtin.js";
import { taskLinesOf } from "../../src/core/task-lines.js";

const line = (speaker: string, text: string, at: string) => ({ speaker, text, at });
const section = (md: string, title: string) => md.split(`## ${title}\n`)[1]?.split(/\n## /)[0].trim() ?? "";
/** Wednesday, 2 December 2026. */
const MEETING_AT = Date.UTC(2026, 11, 2, 10);

const TRANSCRIPT = [
  line("Sarah", "Good afternoon everyone, let's start with the launch date.", "00:00"),
  line("Tom", "The launch moves to the fourteenth of January because the login bug is still open.", "00:12"),
  line("David", "Cloud costs went up forty percent last month, mostly storage.", "00:40"),
  line("Sarah", "David, can you send the cost report by Wednesday?", "01:05"),
  line("David", "Yes, I will send the cost report by Wednesday.", "01:10"),
  line("Tom", "I will fix the login bug before the launch.", "01:30"),
  line("Sarah", "The designers want one more week for the onboarding screens.", "02:10"),
];

const OWN = [
  "## Launch",
  "- [00:20] launch slips?",
  "- cloud costs up 40%",
  "ACTION David cost report Wed",
  "- onboarding screens need a week",
  "- @Tom login bug",
].join("\n");

describe("your notes, woven in", () => {
  it("reads each line: headings, stamps, tasks with their owner and due day", () => {
    const lines = ownLinesOf(OWN, ["Sarah", "Tom", "David"], MEETING_AT);
    expect(lines.map((l) => l.text)).toEqual([
      "Launch",
      "launch slips?",
      "cloud costs up 40%",
      "ACTION David cost report Wed",
      "onboarding screens need a week",
      "@Tom login bug",
    ]);
    expect(lines[0].heading).toBe(true);
    expect(lines[1].stampSec).toBe(20);
    expect(lines[3].task).toEqual({ text: "David cost report Wed", owner: "David", due: "2026-12-09" });
    expect(lines[5].task?.owner).toBe("Tom");
    expect(lines[2].task).toBeNull();
  });

  it("puts under each line what was said near its time or in its words, with the moment", () => {
    const woven = weaveOwnNotes({
      userWrittenNote: OWN,
      transcript: TRANSCRIPT,
      noteId: "nt_1",
      meetingAt: MEETING_AT,
    })!;
    const md = woven.markdown.split("\n");
    const under = (mine: string) => {
      const i = md.findIndex((l) => l.includes(mine));
      const out: string[] = [];
      for (let k = i + 1; k < md.length && md[k].startsWith("  - "); k++) out.push(md[k]);
      return { line: md[i], under: out };
    };
    // Typed at 00:20: the line said at 00:12, the launch moving.
    expect(under("launch slips?").under.join(" ")).toContain("fourteenth of January");
    expect(under("launch slips?").under.join(" ")).toContain("(/notes/nt_1#t=12)");
    expect(under("cloud costs up 40%").under.join(" ")).toContain("Cloud costs went up forty percent");
    expect(under("onboarding screens need a week").under.join(" ")).toContain("one more week for the onboarding");
    // A task cites the line it came from on its own line.
    expect(under("David cost report Wed").line).toMatch(
      /^- \[ \] David cost report Wed \(owner: David\) \(due: 2026-12-09\) \[01:0[05]\]\(\/notes\/nt_1#t=6[05]\)$/,
    );
    expect(md[0]).toBe("### Launch");
  });

  it("makes the enhanced note on them: every line once, their tasks the note's, not again from the transcript", async () => {
    const r = await extractiveSummary({
      title: "Launch sync",
      userWrittenNote: OWN,
      transcript: TRANSCRIPT,
      template: builtinTemplate("tpl_builtin_general")!,
      language: null,
      noteId: "nt_1",
      meetingAt: MEETING_AT,
    });
    const mine = section(r.enhancedNote, "Your notes");
    for (const l of ["launch slips?", "cloud costs up 40%", "David cost report Wed", "@Tom login bug"]) {
      expect(r.enhancedNote.split(l).length - 1, l).toBe(1);
      expect(mine).toContain(l);
    }
    const tasks = taskLinesOf(r.enhancedNote).map((t) => t.body);
    // David's report and Tom's bug once each: as the person wrote them.
    expect(tasks.filter((t) => /cost report/i.test(t))).toHaveLength(1);
    expect(tasks.filter((t) => /login bug/i.test(t))).toHaveLength(1);
    expect(tasks.find((t) => /cost report/i.test(t))).toContain("David cost report Wed");
    expect(wovenIn(OWN, r.enhancedNote)).toBe(true);
    expect(wovenIn(`${OWN}\n- a line written later`, r.enhancedNote)).toBe(false);
  });

  it("leaves a note without the person's lines as it was, and a line nothing matches on its own", () => {
    expect(weaveOwnNotes({ userWrittenNote: "  \n---\n", transcript: TRANSCRIPT })).toBeNull();
    const woven = weaveOwnNotes({ userWrittenNote: "- parking lot closed", transcript: TRANSCRIPT })!;
    expect(woven.markdown).toBe("- parking lot closed");
  });
});
