// The labelled set search quality is measured on: meetings written as teams talk, each
// about two or three of the topics below (with names and numbers), several of them
// follow-ups that say nearly the same thing with other figures, and small talk between.
// Which meetings answer a query follows from how they were built, never from a search:
// a query about a topic is answered by every meeting that discussed it; a query about
// one version of a topic (a figure said only in the follow-up) by the meetings with
// that version; a query about something no meeting touched by none at all.
import { api } from "./lib.mjs";

/** A topic: what is said about it, and optionally a follow-up version with other details. */
const TOPICS = {
  lisbon: [
    ["Ana", "The Lisbon office lease ends in June and the landlord wants twelve percent more."],
    ["Bo", "Moving the team to Porto instead would cost about forty thousand euros."],
    ["Ana", "Finance has to approve the relocation budget before we sign anything."],
  ],
  hiring: [
    ["Cyrus", "We interviewed three candidates for the senior designer role this week."],
    ["Dee", "Priya had the strongest portfolio, especially the checkout redesign."],
    ["Cyrus", "Let us make her an offer by Friday before another company does."],
  ],
  churn: [
    ["Eve", "Two enterprise customers cancelled their contracts this quarter, Halvorsen and Brightline."],
    ["Finn", "Both said our reporting features were too weak for their auditors."],
    ["Eve", "We need a retention plan for every account with falling usage."],
  ],
  outage: [
    ["Gus", "The database was down for forty minutes on Tuesday night."],
    ["Hana", "A schema migration locked the orders table and checkout timed out."],
    ["Gus", "From now on migrations only run outside business hours with a rollback script."],
  ],
  pricing: [
    ["Ivo", "The starter plan is too cheap for what it includes."],
    ["Jo", "We could raise it from twelve to twenty dollars per seat."],
    ["Ivo", "Annual billing should come with a fifteen percent discount."],
  ],
  offsite: [
    ["Kai", "The team offsite will be in the mountains near Innsbruck in September."],
    ["Lu", "We booked a lodge for thirty people for three nights."],
    ["Kai", "The first evening is a dinner by the lake."],
  ],
  security: [
    ["Mo", "The penetration test found that passwords were hashed with plain SHA-1."],
    ["Nia", "We are moving every password to argon2 by the end of the month."],
    ["Mo", "Two factor authentication becomes mandatory for administrators."],
  ],
  mobile: [
    ["Oli", "The mobile app rewrite in React Native is six weeks behind."],
    ["Pia", "Offline mode is the feature customers ask for most."],
    ["Oli", "We ship the Android beta first and iOS a month later."],
  ],
  onboarding: [
    ["Quin", "New engineers spend their first day just getting laptop access."],
    ["Rae", "A buddy for the first two weeks would help them settle in."],
    ["Quin", "The setup script should install everything in under an hour."],
  ],
  podcast: [
    ["Sol", "Our podcast sponsorships brought in almost no trial signups."],
    ["Tia", "The newsletter ads converted four times better for the same money."],
    ["Sol", "We move the podcast budget to the newsletter next quarter."],
  ],
  support: [
    ["Uma", "Support tickets doubled after the last release."],
    ["Vic", "Most of them are about the new invoice layout confusing people."],
    ["Uma", "A short help video in the app could cut those tickets in half."],
  ],
  vendor: [
    ["Wes", "The contract with our logistics vendor Cargolux renews automatically in March."],
    ["Xia", "We have to give ninety days notice to end it."],
    ["Wes", "Legal will send the termination letter this week."],
  ],
  exports: [
    ["Yan", "The nightly data export now takes five hours instead of one."],
    ["Zoe", "The warehouse query scans the whole events table every night."],
    ["Yan", "Partitioning the table by month should fix the slowness."],
  ],
  cloud: [
    ["Ada", "Our cloud bill went up thirty percent since January."],
    ["Ben", "Idle staging servers run all weekend and nobody uses them."],
    ["Ada", "Shutting staging down at night saves about nine thousand dollars a month."],
  ],
  reseller: [
    ["Cal", "Nordpartner wants to become our exclusive reseller in Scandinavia."],
    ["Dia", "Exclusivity for three years is too long for an unproven partner."],
    ["Cal", "We offer them one year with targets instead."],
  ],
  burnout: [
    ["Eli", "Several people on the platform team are exhausted after the launch."],
    ["Fay", "Nobody took holidays during the summer."],
    ["Eli", "Everyone takes a full week off before the end of October."],
  ],
  gdpr: [
    ["Gil", "Answering a GDPR deletion request takes us almost six weeks."],
    ["Hal", "The law gives us thirty days to delete a customer's personal data."],
    ["Gil", "We automate the deletion across every system by December."],
  ],
  roadmap: [
    ["Ivy", "The roadmap for next year has three themes: reporting, integrations and mobile."],
    ["Jay", "Integrations with Salesforce and HubSpot come first."],
    ["Ivy", "We present the roadmap to the board on the fourth of December."],
  ],
  accessibility: [
    ["Kim", "The accessibility audit found that the charts cannot be read by screen readers."],
    ["Lev", "Colour contrast on the buttons also fails the guidelines."],
    ["Kim", "We fix the contrast first because it is quick."],
  ],
  fundraising: [
    ["Max", "The seed extension closes at two million dollars from existing investors."],
    ["Nel", "Runway after the extension is about twenty two months."],
    ["Max", "We start talking to series A funds in the spring."],
  ],
  warehouse: [
    ["Obi", "The Rotterdam warehouse is running out of shelf space."],
    ["Pam", "Peak season starts in November and stock will double."],
    ["Obi", "Renting a second site near Antwerp for four months is the cheapest option."],
  ],
  translation: [
    ["Ray", "The German and French versions of the app still have untranslated screens."],
    ["Sue", "A translation agency quoted eleven cents per word."],
    ["Ray", "We translate the onboarding screens first."],
  ],
  conference: [
    ["Ted", "We have a booth at the SaaStr conference in San Francisco."],
    ["Una", "The booth and travel for four people cost around twenty five thousand dollars."],
    ["Ted", "Each person should book ten meetings with prospects before the event."],
  ],
  api: [
    ["Val", "Partners keep hitting the API rate limit of one hundred requests per minute."],
    ["Wim", "Raising the limit needs a bigger Redis cluster."],
    ["Val", "We raise it to five hundred for paying partners only."],
  ],
  okr: [
    ["Xan", "Our main objective this quarter is net revenue retention above one hundred and ten percent."],
    ["Yuri", "The second objective is cutting onboarding time for new customers to one week."],
    ["Xan", "Each team writes its key results by Monday."],
  ],
  design: [
    ["Zia", "The new design system has forty components and a dark theme."],
    ["Abe", "The old buttons and forms are still used on half the pages."],
    ["Zia", "Every new page must use the design system from now on."],
  ],
  payroll: [
    ["Bea", "Payroll in Spain was paid three days late because of a bank holiday."],
    ["Cas", "We switch the Spanish payroll provider to the same one we use in Germany."],
    ["Bea", "Employees affected get a written apology from the finance director."],
  ],
  analytics: [
    ["Dan", "The product analytics show that only eight percent of users open the reports page."],
    ["Edi", "Most of them never find it because it is hidden in the settings menu."],
    ["Dan", "We move reports into the main navigation."],
  ],
  sales: [
    ["Fox", "The sales pipeline for the fourth quarter is three point two million dollars."],
    ["Gia", "Half of it is in two deals with banks that move slowly."],
    ["Fox", "We should not count on the bank deals closing this year."],
  ],
  legal: [
    ["Hux", "A competitor claims our logo looks too much like theirs."],
    ["Ina", "Our lawyers think the trademark claim is weak."],
    ["Hux", "We answer politely and change nothing for now."],
  ],
  office: [
    ["Jon", "The coffee machine on the third floor has been broken for two weeks."],
    ["Kat", "People also complain that the meeting rooms are always booked."],
    ["Jon", "We add four small phone booths for calls."],
  ],
  training: [
    ["Lia", "Managers asked for training on giving feedback."],
    ["Mia", "An external coach runs two workshops for twelve managers in January."],
    ["Lia", "Each workshop costs three thousand five hundred euros."],
  ],
  billing: [
    ["Ned", "The billing system double charged about two hundred customers on the first of the month."],
    ["Ola", "Refunds went out within a day and we emailed everyone affected."],
    ["Ned", "A test now checks that no invoice is created twice."],
  ],
  community: [
    ["Pat", "Our community forum has eleven thousand members now."],
    ["Que", "The most active members answer questions faster than support does."],
    ["Pat", "We invite the top twenty members to an early access program."],
  ],
  esg: [
    ["Ric", "Large customers now ask for our carbon emissions report in tenders."],
    ["Sam", "Our data centres already run on renewable energy."],
    ["Ric", "We publish a first sustainability report in the spring."],
  ],
  intern: [
    ["Tom", "Six interns join the engineering team in July."],
    ["Ula", "Each intern gets a small real project and a mentor."],
    ["Tom", "At the end of the summer they present their work to the company."],
  ],
};

/** Follow-ups: the same topic said again weeks later, with details that changed. */
const FOLLOW_UPS = {
  lisbon: [
    ["Ana", "Update on the Lisbon lease: the landlord lowered the increase to eight percent."],
    ["Bo", "The Porto move is now estimated at fifty five thousand euros with furniture."],
    ["Ana", "We stay in Lisbon and sign the new lease for three years."],
  ],
  outage: [
    ["Gus", "A second outage hit on Saturday: the payments service was down for twelve minutes."],
    ["Hana", "This time a certificate expired on the load balancer."],
    ["Gus", "We add alerts thirty days before any certificate expires."],
  ],
  pricing: [
    ["Ivo", "The starter plan went up to twenty dollars and signups did not drop."],
    ["Jo", "Upgrades from starter to business rose by nine percent."],
    ["Ivo", "Next we look at the price of the enterprise plan."],
  ],
  hiring: [
    ["Cyrus", "Priya accepted the senior designer offer and starts on the first of March."],
    ["Dee", "We still need a junior designer and a design researcher."],
    ["Cyrus", "The recruiter gets the two new job descriptions this week."],
  ],
  cloud: [
    ["Ada", "Turning off staging at night cut the cloud bill by eleven thousand dollars in October."],
    ["Ben", "Reserved instances for the databases would save another fifteen percent."],
    ["Ada", "We buy one year reservations for production databases."],
  ],
  churn: [
    ["Eve", "The retention plan saved three of the five accounts at risk, including Northwind."],
    ["Finn", "The new audit export convinced their compliance teams."],
    ["Eve", "Customer success now reviews usage of every enterprise account monthly."],
  ],
};

const SMALL_TALK = [
  ["Host", "Can everyone hear me? I think we are all here, so let us start."],
  ["Host", "Thanks everyone, that is all for today."],
  ["Host", "Sorry, I was on mute. Could you repeat the last point?"],
  ["Host", "Let us keep this short, I have another call at the hour."],
  ["Host", "Any other business before we wrap up?"],
];

const mmss = (s) => `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;

/** A small deterministic random sequence: the same corpus every run. */
function prng(seed) {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const TITLES = ["Weekly sync", "Leadership meeting", "Team standup", "Planning session", "All hands", "One on one"];

/**
 * The meetings: key → { title, topics (topic or topic:follow-up), transcript }. Every
 * topic is discussed in at least two meetings; follow-ups come after their topic.
 */
/** Writes the corpus's meetings as notes through the API; their ids by the corpus's keys. */
export async function writeCorpus(server, meetings) {
  const ids = {};
  for (const [key, m] of Object.entries(meetings))
    ids[key] = (
      await api(server, "POST", "/v1/notes", {
        title: m.title,
        summary: "-",
        enhancedNote: "-",
        transcripts: m.transcript,
      })
    ).note.id;
  return ids;
}

export function buildCorpus(count = 110) {
  const random = prng(20261125);
  const topics = Object.keys(TOPICS);
  const meetings = {};
  for (let i = 0; i < count; i++) {
    // Each topic in turn leads a meeting, so all of them are covered; one or two others join.
    const lead = topics[i % topics.length];
    const picked = new Set([lead]);
    const extra = 1 + Math.floor(random() * 2);
    while (picked.size < 1 + extra) picked.add(topics[Math.floor(random() * topics.length)]);
    const parts = [...picked].map((t) =>
      FOLLOW_UPS[t] && i >= topics.length * 2 && random() < 0.7 ? `${t}:follow-up` : t,
    );
    const lines = [SMALL_TALK[0]];
    for (const p of parts) {
      const [topic, followUp] = p.split(":");
      lines.push(...(followUp ? FOLLOW_UPS[topic] : TOPICS[topic]));
    }
    lines.push(SMALL_TALK[1 + Math.floor(random() * (SMALL_TALK.length - 1))]);
    meetings[`m${i}`] = {
      title: `${TITLES[i % TITLES.length]} ${i + 1}`,
      topics: parts,
      transcript: lines.map(([speaker, text], j) => ({
        speaker,
        text,
        startTimestamp: mmss(j * 15),
        endTimestamp: mmss(j * 15 + 14),
      })),
    };
  }
  return meetings;
}

/**
 * The queries: [text, kind, what answers it]. `about` is a topic (any version of it
 * answers), `version` a topic:follow-up or a topic's first version only, null for none.
 */
export const QUERIES = [
  // The words that were said.
  ["Lisbon lease", "words", { about: "lisbon" }],
  ["senior designer candidates", "words", { about: "hiring" }],
  ["enterprise customers cancelled contracts", "words", { about: "churn" }],
  ["schema migration locked orders table", "words", { version: "outage" }],
  ["starter plan price per seat", "words", { about: "pricing" }],
  ["offsite lodge Innsbruck", "words", { version: "offsite" }],
  ["argon2 passwords", "words", { about: "security" }],
  ["React Native rewrite", "words", { about: "mobile" }],
  ["laptop access first day", "words", { about: "onboarding" }],
  ["podcast sponsorships", "words", { about: "podcast" }],
  ["invoice layout tickets", "words", { about: "support" }],
  ["Cargolux termination letter", "words", { about: "vendor" }],
  ["nightly export partitioning", "words", { about: "exports" }],
  ["staging servers idle", "words", { about: "cloud" }],
  ["Nordpartner exclusive reseller", "words", { about: "reseller" }],
  ["GDPR deletion request", "words", { about: "gdpr" }],
  ["Salesforce HubSpot integrations", "words", { about: "roadmap" }],
  ["screen readers charts", "words", { about: "accessibility" }],
  ["seed extension runway", "words", { about: "fundraising" }],
  ["Rotterdam warehouse shelf space", "words", { about: "warehouse" }],
  ["translation agency cents per word", "words", { about: "translation" }],
  ["SaaStr booth", "words", { about: "conference" }],
  ["API rate limit Redis", "words", { about: "api" }],
  ["net revenue retention objective", "words", { about: "okr" }],
  ["design system dark theme", "words", { about: "design" }],
  ["Spanish payroll provider", "words", { about: "payroll" }],
  ["reports page navigation", "words", { about: "analytics" }],
  ["sales pipeline bank deals", "words", { about: "sales" }],
  ["trademark logo competitor", "words", { about: "legal" }],
  ["coffee machine phone booths", "words", { about: "office" }],
  ["feedback workshops managers", "words", { about: "training" }],
  ["double charged refunds", "words", { about: "billing" }],
  ["community forum early access", "words", { about: "community" }],
  ["carbon emissions sustainability report", "words", { about: "esg" }],
  ["interns mentor summer", "words", { about: "intern" }],
  // Exact phrases.
  ['"forty minutes"', "phrase", { version: "outage" }],
  ['"exclusive reseller"', "phrase", { about: "reseller" }],
  ['"retention plan"', "phrase", { about: "churn" }],
  ['"design researcher"', "phrase", { version: "hiring:follow-up" }],
  ['"certificate expired"', "phrase", { version: "outage:follow-up" }],
  ['"reserved instances"', "phrase", { version: "cloud:follow-up" }],
  // A figure or name said only in one version of a topic.
  ["Porto fifty five thousand euros", "version", { version: "lisbon:follow-up" }],
  ["Northwind accounts at risk saved", "version", { version: "churn:follow-up" }],
  ["payments service certificate outage", "version", { version: "outage:follow-up" }],
  ["upgrades rose nine percent", "version", { version: "pricing:follow-up" }],
  ["Priya accepted the offer", "version", { version: "hiring:follow-up" }],
  ["Halvorsen Brightline", "version", { version: "churn" }],
  // Said differently: few or none of the words.
  ["how much will moving the office cost", "meaning", { about: "lisbon" }],
  ["why did the site go down", "meaning", { about: "outage" }],
  ["customers leaving us", "meaning", { about: "churn" }],
  ["people are tired and need rest", "meaning", { about: "burnout" }],
  ["team trip to the alps", "meaning", { about: "offsite" }],
  ["making the product usable for blind users", "meaning", { about: "accessibility" }],
  ["raising money from investors", "meaning", { about: "fundraising" }],
  ["cutting our hosting expenses", "meaning", { about: "cloud" }],
  ["students joining for the summer", "meaning", { about: "intern" }],
  ["customers charged twice", "meaning", { about: "billing" }],
  ["environmental impact of the company", "meaning", { about: "esg" }],
  ["salaries paid late", "meaning", { about: "payroll" }],
  ["new hires first week", "meaning", { about: "onboarding" }],
  // Nothing in any meeting is about these.
  ["zebra xylophone", "none", null],
  ["wedding cake flavours", "none", null],
  ["submarine periscope repair", "none", null],
  ["volcano evacuation drill", "none", null],
  ["knitting patterns for socks", "none", null],
  ["chess opening theory", "none", null],
  ["horse racing odds", "none", null],
  ["ancient egyptian pyramids", "none", null],
  ["jazz saxophone solo", "none", null],
  ["tomato plants and garden pests", "none", null],
  ["snowboard wax", "none", null],
  ["violin lessons for children", "none", null],
  ["dinosaur fossils in the museum", "none", null],
  ["quantum entanglement experiment", "none", null],
  ["medieval castle tour", "none", null],
  ["penguin migration", "none", null],
  ["recipe for banana bread", "none", null],
];

/** The meetings that answer a query: by construction, from the topics each one discussed. */
export function answers(meetings, target) {
  if (!target) return [];
  return Object.entries(meetings)
    .filter(([, m]) => m.topics.some((t) => (target.about ? t.split(":")[0] === target.about : t === target.version)))
    .map(([key]) => key);
}
