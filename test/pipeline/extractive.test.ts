// The summary and the enhanced note every install without a language model shows:
// each sentence once, tasks found where they are named (also in a speech engine's
// unpunctuated text), and sections that need composed prose saying so instead of
// stringing quotes together.
import { describe, expect, it } from "vitest";
import { extractiveSummary, NEEDS_MODEL } from "../../src/ai/summarization/extractive.js";
import { builtinTemplate } from "../../src/ai/templates/builtin.js";

const line = (speaker: string, text: string, at = "00:00") => ({ speaker, text, at });
const section = (md: string, title: string) => md.split(`## ${title}\n`)[1]?.split(/\n## /)[0].trim() ?? "";
/** Wednesday, 2 December 2026: due dates are resolved against the meeting's day. */
const MEETING_AT = Date.UTC(2026, 11, 2, 10);
const input = (transcript: ReturnType<typeof line>[], template = "tpl_builtin_general") => ({
  title: "Quarterly review",
  userWrittenNote: "",
  transcript,
  template: builtinTemplate(template)!,
  language: null,
  noteId: "nt_review",
  meetingAt: MEETING_AT,
});

describe("the extractive summarizer", () => {
  it("says each sentence once, however often the transcript repeats it", async () => {
    const said = "the quarterly numbers for the marketing budget came in well above the forecast this year";
    const r = await extractiveSummary(
      input([
        line("Ana", said),
        line("Bo", "we talked about the marketing budget and the forecast for next year"),
        line("Ana", said),
        line("Ana", `${said}.`),
        line("Bo", "the forecast for the marketing budget needs another look next quarter"),
        line("Cy", "lunch is at noon on the terrace today"),
        line("Bo", "the printer on the second floor is broken again"),
        line("Cy", "someone left an umbrella in the meeting room"),
        line("Ana", "parking will be closed on the weekend for repairs"),
      ]),
    );
    expect(r.summary.toLowerCase().split(said).length - 1).toBeLessThanOrEqual(1);
    const sentences = r.summary.split(/(?<=[.!?])\s+/).map((x) => x.toLowerCase());
    expect(new Set(sentences).size).toBe(sentences.length);
    const bullets = r.enhancedNote.split("\n").filter((l) => l.startsWith("- "));
    expect(new Set(bullets.map((b) => b.toLowerCase())).size).toBe(bullets.length);
  });

  it("finds a task named as one in unpunctuated speech, even beside a decision, as a checklist line", async () => {
    const r = await extractiveSummary(
      input([
        line(
          "Dawn",
          "we looked at the numbers and agreed the costs are too high action item schedule a meeting with the finance department",
        ),
        line("John", "the new office opens in october and the move goes well so far"),
        line("Dawn", "the team likes the new office and the location near the station"),
        line("John", "costs for the move were higher than we planned for this quarter"),
      ]),
    );
    const actions = section(r.enhancedNote, "Action items");
    // Named as a task by its label, with nobody named to do it: no owner is made up.
    expect(actions).toMatch(
      /^- \[ \] Schedule a meeting with the finance department\. \[00:00\]\(\/notes\/nt_review#t=0\)$/m,
    );
    expect(section(r.enhancedNote, "Decisions")).not.toMatch(/finance department/);
  });

  it("lists every task someone takes on, however much it shares with the meeting's main points", async () => {
    // From the summary benchmark's meetings: each "I will" line shares its subject with the
    // meeting's most said words, and went to Key points; a third task found no place.
    const r = await extractiveSummary(
      input([
        line("Ana", "Most people voted for a place by the lake for the team offsite.", "00:00"),
        line("Bo", "The team offsite will take place in June for two days.", "00:05"),
        line("Ana", "We agreed to hold the offsite at the lake hotel.", "00:10"),
        line("Bo", "I will reserve the rooms at the lake hotel this week.", "00:15"),
        line("Cy", "Send a survey about the agenda to everyone.", "00:20"),
        line("Ana", "Next step: ask the last three teams what the offsite should cover.", "00:25"),
        line("Cy", "The lake hotel has a large room for the whole team.", "00:30"),
      ]),
    );
    const actions = section(r.enhancedNote, "Action items");
    // Who takes it on ("I will": the speaker), when it is due (this week: Friday), where it was said.
    expect(actions).toMatch(
      /^- \[ \] I will reserve the rooms at the lake hotel this week\. \(owner: Bo\) \(due: 2026-12-04\) \[00:15\]\(\/notes\/nt_review#t=15\)$/m,
    );
    // An imperative and a labelled step give the task to the room: nobody is named as its owner.
    expect(actions).toMatch(
      /^- \[ \] Send a survey about the agenda to everyone\. \[00:20\]\(\/notes\/nt_review#t=20\)$/m,
    );
    expect(actions).toMatch(
      /^- \[ \] Ask the last three teams what the offsite should cover\. \[00:25\]\(\/notes\/nt_review#t=25\)$/m,
    );
    expect(section(r.enhancedNote, "Key points")).not.toMatch(/reserve the rooms|last three teams/);
    expect(section(r.enhancedNote, "Decisions")).toMatch(/hold the offsite at the lake hotel/);
  });

  it("leaves an email's subject and body to a language model, and says so", async () => {
    const r = await extractiveSummary(
      input(
        [
          line("Dawn", "you did or didn't want it out in october dawn will prepare the figures"),
          line("John", "we agreed to move the launch to november after the review"),
        ],
        "tpl_builtin_follow-up-email",
      ),
    );
    expect(section(r.enhancedNote, "Subject")).toBe(NEEDS_MODEL);
    // The last section.
    expect(section(r.enhancedNote, "Email")).toBe(NEEDS_MODEL);
    // The text is the meeting's: who wrote it is the note's record, not a line of it.
    expect(r.enhancedNote).not.toMatch(/language model configured|extraction/i);
    expect(r.enhancedNote).not.toMatch(/october dawn will prepare/);
  });

  it("cites the moment each sentence of the summary was said", async () => {
    const r = await extractiveSummary(
      input([
        line("Tom", "The launch moves to the fourteenth of January because the login bug is still open.", "00:12"),
        line("Ana", "Good point, thanks.", "00:30"),
        line("David", "Cloud costs went up forty percent last month, mostly storage.", "00:40"),
      ]),
    );
    const cited = [...r.summary.matchAll(/\[(\d\d:\d\d)\]\(\/notes\/nt_review#t=(\d+)\)/g)].map((m) => [m[1], m[2]]);
    expect(cited.length, r.summary).toBeGreaterThan(0);
    for (const [at, sec] of cited)
      expect([
        ["00:12", "12"],
        ["00:40", "40"],
      ]).toContainEqual([at, sec]);
    // Every sentence ends with its moment.
    for (const sentence of r.summary.split(/(?<=\))\s+/)) expect(sentence).toMatch(/\(\/notes\/nt_review#t=\d+\)$/);
  });
});
