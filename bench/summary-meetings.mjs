// The offline summarizer's evaluation set: sixteen short meetings, each written as who
// says what, with the tasks (who takes each on, when it is due) and decisions in it
// written down by hand before any summary was made. The last four are full of what a
// meeting says besides: greetings, agenda talk, questions, "good point"s. The benchmark
// speaks them (flite, a voice per person), transcribes them (pocketsphinx and whisper,
// through the server) and checks the notes against these lists.
//
// An owner is a name, "speaker" for the person who said it ("I will…"), or null when
// nobody was named. A due date is said relative to the meeting's day: a weekday ("fri",
// the next one after it), "next-fri" (the Friday of the week after), "today",
// "tomorrow", "week-end" (this week's Friday), "next-week" (next week's Friday),
// "month-end", or null.
export const MEETINGS = [
  {
    title: "Finance sync",
    lines: [
      ["slt", "Welcome everyone, today we look at the travel costs for the last quarter."],
      ["kal", "The travel costs were thirty percent above the plan, mostly flights."],
      ["slt", "We agreed to book flights at least three weeks ahead from now on."],
      ["kal", "Action item: schedule a meeting with the finance department next week."],
      ["slt", "Maria will send the new travel policy to the whole team by Friday."],
    ],
    actions: [
      { text: "schedule a meeting with the finance department", owner: null, due: "next-week" },
      { text: "Maria will send the new travel policy", owner: "Maria", due: "fri" },
    ],
    decisions: ["book flights at least three weeks ahead"],
  },
  {
    title: "Website launch",
    lines: [
      ["awb", "The new website is almost ready, only the pricing page is missing."],
      ["slt", "We decided to launch the website on the first of March."],
      ["awb", "Peter will finish the pricing page by Wednesday."],
      ["slt", "The images on the home page load slowly on phones."],
      ["awb", "Next step: compress the images on the home page."],
    ],
    actions: [
      { text: "Peter will finish the pricing page", owner: "Peter", due: "wed" },
      { text: "compress the images on the home page", owner: null, due: null },
    ],
    decisions: ["launch the website on the first of March"],
  },
  {
    title: "Hiring plan",
    lines: [
      ["kal", "We have two open positions in the design team this year."],
      ["rms", "The budget allows one senior designer and one junior designer."],
      ["kal", "We agreed to hire the senior designer first."],
      ["rms", "I will write the job description for the senior designer tomorrow."],
      ["kal", "Anna needs to ask the recruiters for a quote."],
    ],
    actions: [
      { text: "write the job description for the senior designer", owner: "speaker", due: "tomorrow" },
      { text: "ask the recruiters for a quote", owner: "Anna", due: null },
    ],
    decisions: ["hire the senior designer first"],
  },
  {
    title: "Customer support review",
    lines: [
      ["slt", "The number of support tickets doubled after the last release."],
      ["awb", "Most tickets are about the password reset email that never arrives."],
      ["slt", "We decided to fix the password reset email before anything else."],
      ["awb", "Action item: check the mail server logs for the reset emails."],
      ["slt", "Tom will answer the open tickets about passwords today."],
    ],
    actions: [
      { text: "check the mail server logs for the reset emails", owner: null, due: null },
      { text: "Tom will answer the open tickets about passwords", owner: "Tom", due: "today" },
    ],
    decisions: ["fix the password reset email before anything else"],
  },
  {
    title: "Office move",
    lines: [
      ["rms", "The lease on the old office ends in October."],
      ["kal", "The new office near the station has room for forty people."],
      ["rms", "We agreed to sign the lease for the new office."],
      ["kal", "Lisa will order the moving boxes by the end of the month."],
      ["rms", "Action item: tell the landlord that we are leaving."],
    ],
    actions: [
      { text: "Lisa will order the moving boxes", owner: "Lisa", due: "month-end" },
      { text: "tell the landlord that we are leaving", owner: null, due: null },
    ],
    decisions: ["sign the lease for the new office"],
  },
  {
    title: "Product roadmap",
    lines: [
      ["awb", "Customers keep asking for an export to spreadsheets."],
      ["slt", "The mobile app needs offline mode as well."],
      ["awb", "We decided to build the spreadsheet export in the next quarter."],
      ["slt", "I will write a short design document for the export by Monday."],
      ["awb", "Next step: interview five customers about offline mode."],
    ],
    actions: [
      { text: "write a short design document for the export", owner: "speaker", due: "mon" },
      { text: "interview five customers about offline mode", owner: null, due: null },
    ],
    decisions: ["build the spreadsheet export in the next quarter"],
  },
  {
    title: "Security audit",
    lines: [
      ["kal", "The security audit found three problems with old passwords."],
      ["rms", "Two servers still run an old version of the operating system."],
      ["kal", "We agreed to turn on two factor login for every account."],
      ["rms", "Action item: update the operating system on both servers."],
      ["kal", "Sam will send the audit report to the board by Thursday."],
    ],
    actions: [
      { text: "update the operating system on both servers", owner: null, due: null },
      { text: "Sam will send the audit report to the board", owner: "Sam", due: "thu" },
    ],
    decisions: ["turn on two factor login for every account"],
  },
  {
    title: "Marketing campaign",
    lines: [
      ["slt", "The spring campaign brought twice as many visitors as last year."],
      ["awb", "The video ads worked better than the banners."],
      ["slt", "We decided to move the banner budget to video ads."],
      ["awb", "Emma will book the video studio for April."],
      ["slt", "Action item: collect the campaign numbers in one report."],
    ],
    actions: [
      { text: "Emma will book the video studio", owner: "Emma", due: null },
      { text: "collect the campaign numbers in one report", owner: null, due: null },
    ],
    decisions: ["move the banner budget to video ads"],
  },
  {
    title: "Team offsite",
    lines: [
      ["rms", "The team offsite will take place in June for two days."],
      ["kal", "Most people voted for a place by the lake."],
      ["rms", "We agreed to hold the offsite at the lake hotel."],
      ["kal", "I will reserve the rooms at the lake hotel this week."],
      ["rms", "Next step: send a survey about the agenda to everyone."],
    ],
    actions: [
      { text: "reserve the rooms at the lake hotel", owner: "speaker", due: "week-end" },
      { text: "send a survey about the agenda to everyone", owner: null, due: null },
    ],
    decisions: ["hold the offsite at the lake hotel"],
  },
  {
    title: "Sales pipeline",
    lines: [
      ["awb", "The sales pipeline has twelve deals for this quarter."],
      ["slt", "The largest deal is with the hospital group in the north."],
      ["awb", "We decided to give the hospital group a ten percent discount."],
      ["slt", "Paul needs to prepare the contract for the hospital group."],
      ["awb", "Action item: call the three customers who went quiet."],
    ],
    actions: [
      { text: "prepare the contract for the hospital group", owner: "Paul", due: null },
      { text: "call the three customers who went quiet", owner: null, due: null },
    ],
    decisions: ["give the hospital group a ten percent discount"],
  },
  {
    title: "Data platform",
    lines: [
      ["kal", "The nightly reports take four hours to run."],
      ["rms", "Most of the time goes into copying the whole database every night."],
      ["kal", "We agreed to copy only the changes from now on."],
      ["rms", "Nina will test the new copy job on the staging server."],
      ["kal", "Action item: measure the report times after the change."],
    ],
    actions: [
      { text: "Nina will test the new copy job on the staging server", owner: "Nina", due: null },
      { text: "measure the report times after the change", owner: null, due: null },
    ],
    decisions: ["copy only the changes"],
  },
  {
    title: "Onboarding",
    lines: [
      ["slt", "New people need two weeks before their first real task."],
      ["awb", "The onboarding document is out of date."],
      ["slt", "We decided to give every new person a buddy for the first month."],
      ["awb", "I will update the onboarding document by next Friday."],
      ["slt", "Next step: ask the last three new people what was missing."],
    ],
    actions: [
      { text: "update the onboarding document", owner: "speaker", due: "next-fri" },
      { text: "ask the last three new people what was missing", owner: null, due: null },
    ],
    decisions: ["give every new person a buddy for the first month"],
  },
  {
    title: "Weekly product sync",
    lines: [
      ["slt", "Good afternoon everyone, thanks for joining the weekly product sync."],
      ["kal", "Hi all, can you hear me?"],
      ["slt", "Let's start with the first item on the agenda, the launch date."],
      ["awb", "The launch date depends on the payment provider."],
      ["rms", "Good point."],
      ["slt", "We decided to launch on the tenth of March."],
      ["kal", "What about the mobile app?"],
      ["awb", "The mobile app still crashes on older phones."],
      ["slt", "Tom, can you fix the crash on older phones by Friday?"],
      ["rms", "David will send the cost report by Wednesday."],
      ["slt", "Any other questions?"],
      ["kal", "Thanks everyone, see you next week."],
    ],
    actions: [
      { text: "fix the crash on older phones", owner: "Tom", due: "fri" },
      { text: "David will send the cost report", owner: "David", due: "wed" },
    ],
    decisions: ["launch on the tenth of March"],
  },
  {
    title: "Design review",
    lines: [
      ["awb", "Welcome to the design review, today we'll look at the new dashboard."],
      ["slt", "Let's go through the mockups one by one."],
      ["awb", "The first mockup puts the search box at the top."],
      ["kal", "I like that, it makes sense."],
      ["rms", "Should we keep the old menu for a while?"],
      ["awb", "Most users never open the old menu."],
      ["slt", "We agreed to remove the old menu in the next release."],
      ["kal", "I'll update the mockups with the new colors by tomorrow."],
      ["awb", "Sounds good."],
      ["rms", "Moving on to the icons."],
      ["slt", "Sarah needs to review the icons with the brand team."],
      ["awb", "Great, thank you all."],
    ],
    actions: [
      { text: "update the mockups with the new colors", owner: "speaker", due: "tomorrow" },
      { text: "review the icons with the brand team", owner: "Sarah", due: null },
    ],
    decisions: ["remove the old menu in the next release"],
  },
  {
    title: "Hiring sync",
    lines: [
      ["rms", "Okay, let's get started."],
      ["kal", "Let's go through the open roles."],
      ["rms", "We have three open roles in engineering and one in sales."],
      ["kal", "How many candidates are in the final round?"],
      ["rms", "Four candidates are in the final round for the backend role."],
      ["slt", "Good point, that is more than last month."],
      ["kal", "We decided to make an offer to the first backend candidate."],
      ["rms", "Can you send the offer letter today, Maria?"],
      ["slt", "Next step: post the sales role on the job board."],
      ["kal", "Does anyone have anything else?"],
      ["rms", "Have a great weekend."],
    ],
    actions: [
      { text: "send the offer letter", owner: "Maria", due: "today" },
      { text: "post the sales role on the job board", owner: null, due: null },
    ],
    decisions: ["make an offer to the first backend candidate"],
  },
  {
    title: "Quarterly planning",
    lines: [
      ["kal", "Good morning, everyone."],
      ["awb", "Today we'll talk about the plans for next quarter."],
      ["kal", "What are the biggest risks for the next quarter?"],
      ["awb", "The biggest risk is the new data center, which is late."],
      ["slt", "Why is it late?"],
      ["awb", "The supplier could not deliver the servers in time."],
      ["kal", "Right, I see."],
      ["slt", "We agreed to keep the old data center until June."],
      ["awb", "I will call the supplier about a new delivery date."],
      ["kal", "Is there anything else for today?"],
      ["slt", "No, that's all from me, thank you."],
    ],
    actions: [{ text: "call the supplier about a new delivery date", owner: "speaker", due: null }],
    decisions: ["keep the old data center until June"],
  },
];

// Notes a person typed in eight of the meetings, as people type them: terse, with their
// own abbreviations, some during the recording (stamped with its time: a few seconds
// after the line they are about), some tasks (ACTION, TODO, @name). Each is labelled
// with the meeting's line it is about and, for a task, its owner and due day.
export const OWN_NOTES = {
  "Finance sync": [
    { text: "travel 30% over plan", line: 1 },
    { text: "book flights 3 wks ahead", line: 2, stamped: true },
    { text: "ACTION Maria travel policy Fri", line: 4, task: { owner: "Maria", due: "fri" } },
  ],
  "Website launch": [
    { text: "launch 1 March", line: 1, stamped: true },
    { text: "pricing page still missing", line: 0 },
    { text: "TODO compress home page images", line: 4, task: { owner: null, due: null } },
  ],
  "Hiring plan": [
    { text: "budget: 1 senior + 1 junior designer", line: 1 },
    { text: "@Anna recruiter quote", line: 4, task: { owner: "Anna", due: null } },
  ],
  "Customer support review": [
    { text: "tickets doubled since release", line: 0, stamped: true },
    { text: "reset email never arrives", line: 1 },
    { text: "ACTION Tom open password tickets today", line: 4, task: { owner: "Tom", due: "today" } },
  ],
  "Office move": [
    { text: "old lease ends Oct", line: 0 },
    { text: "new office near station, room for 40", line: 1, stamped: true },
  ],
  "Product roadmap": [
    { text: "customers want spreadsheet export", line: 0 },
    { text: "offline mode for mobile", line: 1, stamped: true },
  ],
  "Security audit": [
    { text: "3 problems w/ old passwords", line: 0 },
    { text: "@Sam audit report to board Thu", line: 4, task: { owner: "Sam", due: "thu" } },
  ],
  "Weekly product sync": [
    { text: "launch depends on payment provider", line: 3, stamped: true },
    { text: "mobile app crashes on old phones", line: 7 },
    { text: "ACTION David cost report Wed", line: 9, task: { owner: "David", due: "wed" } },
  ],
};
