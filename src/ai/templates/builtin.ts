// The templates every workspace has: read-only, copied to be changed. Their ids are
// fixed so that a folder or workspace default survives an upgrade that rewords them.
import type { TemplateSectionValue } from "../../db/schema/templates.js";

export interface TemplateSpec {
  id: string;
  name: string;
  description: string;
  sections: TemplateSectionValue[];
  context: string;
  language: string | null;
  builtIn: boolean;
}

const builtIn = (id: string, name: string, description: string, sections: [string, string][]): TemplateSpec => ({
  id: `tpl_builtin_${id}`,
  name,
  description,
  sections: sections.map(([title, instructions]) => ({ title, instructions })),
  context: "",
  language: null,
  builtIn: true,
});

export const GENERAL_TEMPLATE_ID = "tpl_builtin_general";

export const BUILTIN_TEMPLATES: readonly TemplateSpec[] = [
  builtIn("general", "General meeting", "Key points, decisions and action items: fits any meeting.", [
    ["Key points", "The main topics discussed and what was said about each, as short bullet points."],
    ["Decisions", "Decisions that were made or agreed, one bullet each."],
    [
      "Action items",
      "Tasks that someone will do or needs to do, each as '- [ ] task (owner: name)', with a due date when one was given.",
    ],
  ]),
  builtIn("one-to-one", "One-to-one", "A manager and a report: how things are going, feedback, growth.", [
    ["How things are going", "Wellbeing, workload and morale as the person described them."],
    ["Progress and blockers", "Work finished since last time, work in progress, and anything blocking it."],
    ["Feedback", "Feedback given in either direction, with the examples mentioned."],
    ["Growth", "Career goals, skills to develop, and opportunities discussed."],
    ["Action items", "Tasks agreed, each as '- [ ] task (owner: name)'."],
  ]),
  builtIn("stand-up", "Stand-up", "Yesterday, today and blockers, per person.", [
    ["Yesterday", "What each person finished since the last stand-up, grouped by person."],
    ["Today", "What each person plans to work on today, grouped by person."],
    ["Blockers", "Anything blocking someone's work, and who can help."],
  ]),
  builtIn(
    "sales-call",
    "Sales call",
    "Discovery and qualification for the CRM: needs, budget, authority, timeline, next steps.",
    [
      ["Company and contact", "The prospect's company, their role, team size and anything said about their business."],
      ["Pain points", "The problems and needs the prospect described, in their words where possible."],
      ["Current solution", "What they use today and what they think of it; competitors mentioned."],
      ["Budget", "Budget, pricing discussed and how purchases are approved."],
      ["Decision makers", "Who decides, who else is involved, and their concerns."],
      ["Timeline", "When they want to decide and to start; deadlines and events driving them."],
      ["Objections", "Concerns or objections raised, and how they were answered."],
      ["Next steps", "Agreed next steps with owners and dates, each as '- [ ] task (owner: name)'."],
    ],
  ),
  builtIn("interview", "Interview", "A candidate interview: background, skills, answers and an assessment.", [
    ["Candidate background", "Experience, current role and what the candidate is looking for."],
    ["Skills and experience", "Evidence of skills from the candidate's answers, with concrete examples."],
    ["Questions and answers", "Each question asked and the gist of the answer."],
    ["Candidate's questions", "What the candidate asked about the role or company."],
    ["Strengths and concerns", "Strengths shown and concerns raised, with the moments that showed them."],
    ["Next steps", "What happens next in the process."],
  ]),
  builtIn("follow-up-email", "Follow-up email", "A short email to send to the attendees after the meeting.", [
    ["Subject", "One line: a subject for the follow-up email."],
    [
      "Email",
      "A short, friendly email to the attendees: thanks, a recap of what was discussed and decided, and the next steps with owners and dates.",
    ],
  ]),
  builtIn("chat-recap", "Chat recap", "A few lines to paste into a team chat.", [
    ["TL;DR", "Two or three sentences on what the meeting was about and its outcome."],
    ["Highlights", "The three to five most important points, one short bullet each."],
    ["To do", "Who does what next, one bullet each, as '- [ ] task (owner: name)'."],
  ]),
];

const byId = new Map(BUILTIN_TEMPLATES.map((t) => [t.id, t]));

export const builtinTemplate = (id: string): TemplateSpec | undefined => byId.get(id);
