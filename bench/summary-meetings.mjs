// The offline summarizer's evaluation set: twelve short meetings, each written as who
// says what, with the tasks and decisions in it written down by hand before any
// summary was made. The benchmark speaks them (flite, a voice per person), transcribes
// them (pocketsphinx, through the server) and checks the notes against these lists.
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
    actions: ["schedule a meeting with the finance department", "Maria will send the new travel policy"],
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
    actions: ["Peter will finish the pricing page", "compress the images on the home page"],
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
    actions: ["write the job description for the senior designer", "ask the recruiters for a quote"],
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
    actions: ["check the mail server logs for the reset emails", "Tom will answer the open tickets about passwords"],
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
    actions: ["Lisa will order the moving boxes", "tell the landlord that we are leaving"],
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
    actions: ["write a short design document for the export", "interview five customers about offline mode"],
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
    actions: ["update the operating system on both servers", "Sam will send the audit report to the board"],
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
    actions: ["Emma will book the video studio", "collect the campaign numbers in one report"],
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
    actions: ["reserve the rooms at the lake hotel", "send a survey about the agenda to everyone"],
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
    actions: ["prepare the contract for the hospital group", "call the three customers who went quiet"],
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
    actions: ["Nina will test the new copy job on the staging server", "measure the report times after the change"],
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
    actions: ["update the onboarding document", "ask the last three new people what was missing"],
    decisions: ["give every new person a buddy for the first month"],
  },
];
