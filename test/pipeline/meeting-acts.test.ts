// What a meeting's sentences do, as the offline summary judges them: the greetings,
// agenda talk, questions and "good point"s of a real meeting are never a decision, a
// task or a key point; a task is given to the person who takes it on, with the date its
// words give, resolved against the meeting's day.
import { describe, expect, it } from "vitest";
import { actOf, actionOf, sentencesOf } from "../../src/ai/summarization/meeting-acts.js";
import { dueDateOf } from "../../src/ai/summarization/due-dates.js";
import { citeLines } from "../../src/ai/summarization/citations.js";
import { extractiveSummary } from "../../src/ai/summarization/extractive.js";
import { builtinTemplate } from "../../src/ai/templates/builtin.js";

/** Wednesday, 2 December 2026. */
const WEDNESDAY = Date.UTC(2026, 11, 2, 15);
const ctx = (speaker = "Alex", names: string[] = []) => ({ speaker, names, meetingAt: WEDNESDAY });
const section = (md: string, title: string) => md.split(`## ${title}\n`)[1]?.split(/\n## /)[0].trim() ?? "";
const bullets = (md: string, title: string) =>
  section(md, title)
    .split("\n")
    .filter((l) => l.startsWith("- "));

describe("what a sentence does", () => {
  it("greets, steers the agenda or acknowledges: never a point of the note", () => {
    const cases: [string, string][] = [
      ["Good afternoon everyone.", "courtesy"],
      ["Thanks for joining, everyone.", "courtesy"],
      ["Let's go through the open roles.", "agenda"],
      ["Welcome to the design review, today we'll look at the new onboarding flow.", "agenda"],
      ["First item is the launch date.", "agenda"],
      ["Moving on to the budget.", "agenda"],
      ["Good point, David.", "acknowledgement"],
      ["Sounds good to me.", "acknowledgement"],
      ["Agreed.", "courtesy"],
    ];
    for (const [said, act] of cases) {
      expect(["courtesy", "agenda", "acknowledgement"], said).toContain(actOf(said, ctx()));
      if (act !== "courtesy") expect(actOf(said, ctx()), said).toBe(act);
    }
  });

  it("asks: a question is no task, unless it asks a person to do one", () => {
    for (const q of [
      "Should we move the launch?",
      "What do you think about the budget?",
      "Could you explain the numbers?",
    ])
      expect(actOf(q, ctx()), q).toBe("question");
    expect(actionOf("Tom, can you fix the login bug before Friday?", ctx("Alex"))).toEqual({
      task: "Tom, can you fix the login bug before Friday?",
      owner: "Tom",
      due: "2026-12-04",
    });
    expect(actionOf("Can you send me the slides, Maria?", ctx("Alex"))?.owner).toBe("Maria");
  });

  it("decides only in so many words", () => {
    expect(actOf("We decided to launch on the first of March.", ctx())).toBe("decision");
    expect(actOf("We agreed to book flights three weeks ahead.", ctx())).toBe("decision");
    expect(actOf("Let's go with the blue design.", ctx())).toBe("decision");
    // "we'll" is no decision: here it is the agenda.
    expect(actOf("Today we'll look at the new dashboard.", ctx())).toBe("agenda");
    expect(actOf("The dashboard loads slowly on phones.", ctx())).toBe("statement");
  });

  it("gives a task to the person who takes it on, not always the speaker", () => {
    expect(actionOf("I'll send the cost report by Wednesday.", ctx("David"))).toMatchObject({
      owner: "David",
      due: "2026-12-09",
    });
    expect(actionOf("David will send the cost report by Wednesday.", ctx("Sarah"))?.owner).toBe("David");
    expect(actionOf("Paul needs to prepare the contract.", ctx("Sarah"))?.owner).toBe("Paul");
    expect(actionOf("Tom to fix the login bug.", ctx("Sarah"))?.owner).toBe("Tom");
    // A speech engine's lower case: the name is known from the meeting's people, or taken from the words.
    expect(actionOf("david will send the cost report by wednesday", ctx("Speaker 1", ["David Chen"]))?.owner).toBe(
      "David Chen",
    );
    expect(actionOf("maria will send the new travel policy by friday", ctx("Speaker 1"))?.owner).toBe("Maria");
    expect(actionOf("the team will send the survey", ctx("Speaker 1"))?.owner).toBeNull();
    // Nobody named: the room's task, with no owner made up.
    expect(actionOf("Action item: schedule a meeting with finance.", ctx("Sarah"))).toEqual({
      task: "schedule a meeting with finance.",
      owner: null,
      due: null,
    });
  });

  it("is no task when it promises nothing", () => {
    for (const s of [
      "I'll be honest, the numbers are not great.",
      "Let me share my screen.",
      "It will take two weeks to build.",
      "The launch will happen in March.",
      "We need to talk about the budget.",
    ])
      expect(actionOf(s, ctx()), s).toBeNull();
  });

  it("cuts a speech engine's run-on line where the next thought starts", () => {
    expect(
      sentencesOf(
        "good afternoon everyone let's start the weekly product sync first item is the launch date david will send the cost report by wednesday",
        ["David"],
      ),
    ).toEqual([
      "good afternoon everyone",
      "let's start the weekly product sync",
      "first item is the launch date",
      "david will send the cost report by wednesday",
    ]);
    // A short cue stays with its sentence.
    expect(sentencesOf("Thanks David, that helps.")).toEqual(["Thanks David, that helps."]);
  });
});

describe("due dates", () => {
  it("resolve the words against the meeting's day", () => {
    const cases: [string, string | null][] = [
      ["by Friday", "2026-12-04"],
      ["by Wednesday", "2026-12-09"],
      ["next Friday", "2026-12-11"],
      ["today", "2026-12-02"],
      ["tomorrow", "2026-12-03"],
      ["by the end of the week", "2026-12-04"],
      ["by next week", "2026-12-07"],
      ["by the end of the month", "2026-12-31"],
      ["in two weeks", "2026-12-16"],
      ["on the first of March", "2027-03-01"],
      ["by December 14th", "2026-12-14"],
      ["by the thirty-first of November", null],
      ["some time soon", null],
    ];
    for (const [words, due] of cases) expect(dueDateOf(`Send it ${words}.`, WEDNESDAY), words).toBe(due);
  });
});

describe("the offline note of a real meeting's talk", () => {
  it("lists the tasks and the decision said, and none of the greetings, agenda or acknowledgements", async () => {
    const line = (speaker: string, text: string, at: string) => ({ speaker, text, at });
    const r = await extractiveSummary({
      title: "Weekly product sync",
      userWrittenNote: "",
      template: builtinTemplate("tpl_builtin_general")!,
      language: null,
      noteId: "nt_sync",
      meetingAt: WEDNESDAY,
      people: ["Sarah Lee", "David", "Tom", "Alex"],
      transcript: [
        line(
          "Sarah Lee",
          "Good afternoon everyone let's start the weekly product sync first item is the launch date",
          "00:00",
        ),
        line("Alex", "Welcome to the design review, today we'll look at the new onboarding flow.", "00:08"),
        line("David", "The cloud costs went up by forty percent last month, mostly storage.", "00:15"),
        line("Sarah Lee", "Good point, David.", "00:22"),
        line("Alex", "Let's go through the open roles.", "00:25"),
        line("Tom", "The login bug locks people out after a password reset.", "00:30"),
        line("Sarah Lee", "We decided to move the launch to the second week of March.", "00:36"),
        line("David", "I'll send the cost report by Wednesday.", "00:42"),
        line("Sarah Lee", "Tom, can you fix the login bug before the launch?", "00:47"),
        line("Tom", "Should we tell the customers about the outage?", "00:52"),
        line("Alex", "Thanks everyone, see you next week.", "00:58"),
      ],
    });
    const actions = bullets(r.enhancedNote, "Action items");
    expect(actions).toEqual([
      "- [ ] I'll send the cost report by Wednesday. (owner: David) (due: 2026-12-09) [00:42](/notes/nt_sync#t=42)",
      "- [ ] Tom, can you fix the login bug before the launch? (owner: Tom) [00:47](/notes/nt_sync#t=47)",
    ]);
    expect(bullets(r.enhancedNote, "Decisions")).toEqual([
      "- We decided to move the launch to the second week of March. [00:36](/notes/nt_sync#t=36)",
    ]);
    const points = bullets(r.enhancedNote, "Key points").join("\n");
    for (const junk of [/afternoon/i, /welcome/i, /good point/i, /open roles/i, /thanks/i, /should we/i])
      expect(points).not.toMatch(junk);
    expect(points).toMatch(/cloud costs went up by forty percent \w+ \w+, mostly storage\. \[00:15\]/);
    for (const junk of [/afternoon/i, /welcome/i, /good point/i, /open roles/i, /thanks/i])
      expect(r.summary).not.toMatch(junk);
    // Every point cites the line it comes from, and a line that exists.
    for (const b of r.enhancedNote.split("\n").filter((l) => l.startsWith("- ")))
      expect(b).toMatch(/ \[\d\d:\d\d\]\(\/notes\/nt_sync#t=\d+\)$/);
  });
});

describe("a model's citations", () => {
  const transcript = [
    { speaker: "Ana", text: "The Lisbon office opens in March with six people.", at: "00:10" },
    { speaker: "Ben", text: "I will send the lease to the lawyers by Friday.", at: "01:05" },
  ];
  it("become links to their moments where the line said then supports the point, and are dropped and counted where not", () => {
    const { markdown, count } = citeLines(
      [
        "- The Lisbon office opens in March [00:10]",
        "- [ ] Send the lease to the lawyers (owner: Ben) [01:05, 00:10]",
        "- A budget nobody mentioned [02:30]",
        "- The office has six desks",
        "Prose says the office opens with six people [00:10]",
      ].join("\n"),
      transcript,
      "nt_x",
    );
    expect(markdown.split("\n")).toEqual([
      "- The Lisbon office opens in March [00:10](/notes/nt_x#t=10)",
      // 00:10 says nothing of the lease: that citation is dropped, 01:05 kept.
      "- [ ] Send the lease to the lawyers (owner: Ben) [01:05](/notes/nt_x#t=65)",
      // No line was said at 02:30.
      "- A budget nobody mentioned",
      "- The office has six desks",
      "Prose says the office opens with six people [00:10](/notes/nt_x#t=10)",
    ]);
    expect(count).toEqual({ cited: 2, uncited: 2, dropped: 2 });
  });
});
