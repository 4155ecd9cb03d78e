// Search quality on a small labelled set: 24 meetings, 20 queries, each with the
// notes that should come first. Reports recall@10 and MRR for every mode of
// GET /v1/search, on a real server with the bundled sentence-embedding model.
// Queries are of three kinds: the words used in the meeting, a phrase, and a
// paraphrase that shares few or no words with what was said.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { api, startServer, stopServer } from "./lib.mjs";

const t = (speaker, text) => ({ speaker, text });

/** key → the meeting: title, and what was said. */
export const CORPUS = {
  lisbon: [
    "Facilities sync",
    [
      t("Ana", "The Lisbon office lease ends in June."),
      t("Bo", "Moving the team to Portugal will cost about forty thousand euros."),
      t("Ana", "Finance must approve the relocation budget first."),
    ],
  ],
  hiring: [
    "Hiring committee",
    [
      t("Cy", "We have three candidates for the senior designer role."),
      t("Dee", "The second candidate had the strongest portfolio."),
      t("Cy", "Let us make an offer by Friday."),
    ],
  ],
  churn: [
    "Enterprise churn review",
    [
      t("Eve", "Two large customers cancelled their contracts this quarter."),
      t("Finn", "Both said the reporting features were too weak."),
      t("Eve", "We need a retention plan for accounts at risk."),
    ],
  ],
  outage: [
    "Incident postmortem",
    [
      t("Gus", "The database went down for forty minutes on Tuesday."),
      t("Hana", "A migration locked the orders table."),
      t("Gus", "From now on migrations run outside business hours."),
    ],
  ],
  pricing: [
    "Pricing workshop",
    [
      t("Ivo", "The starter plan is too cheap for what it includes."),
      t("Jo", "We could raise it to twenty dollars a seat."),
      t("Ivo", "Annual billing should get a discount."),
    ],
  ],
  offsite: [
    "Offsite planning",
    [
      t("Kai", "The offsite will be in the mountains in September."),
      t("Lu", "We booked a lodge for thirty people."),
      t("Kai", "Dinner on the first night is at the lake."),
    ],
  ],
  security: [
    "Security audit",
    [
      t("Mo", "The auditors found that passwords were stored with a weak hash."),
      t("Nia", "We switched to argon2 last week."),
      t("Mo", "Two-factor login becomes mandatory for admins."),
    ],
  ],
  roadmap: [
    "Product roadmap",
    [
      t("Oli", "Next quarter we focus on the mobile app."),
      t("Pia", "Offline mode is the most requested feature."),
      t("Oli", "The web dashboard redesign moves to the autumn."),
    ],
  ],
  onboarding: [
    "New hire onboarding",
    [
      t("Quin", "New engineers get a laptop and accounts on their first day."),
      t("Ria", "Each one is paired with a buddy for a month."),
      t("Quin", "The handbook needs a section on code review."),
    ],
  ],
  marketing: [
    "Campaign kickoff",
    [
      t("Sam", "The spring campaign targets small agencies."),
      t("Tea", "We will run ads on podcasts and newsletters."),
      t("Sam", "The launch video is due in two weeks."),
    ],
  ],
  support: [
    "Support backlog",
    [
      t("Uma", "The ticket queue grew to four hundred open requests."),
      t("Vic", "Most are about password resets."),
      t("Uma", "A self-service reset page would cut the queue in half."),
    ],
  ],
  okr: [
    "Quarterly OKR check-in",
    [
      t("Wes", "Revenue is at eighty percent of the target."),
      t("Xia", "Activation improved after the new tutorial."),
      t("Wes", "The churn objective is off track."),
    ],
  ],
  legal: [
    "Contract review",
    [
      t("Yan", "The vendor contract renews automatically every year."),
      t("Zoe", "We should negotiate a termination clause."),
      t("Yan", "Legal will send comments by Thursday."),
    ],
  ],
  data: [
    "Data warehouse",
    [
      t("Abe", "Nightly exports to the warehouse take six hours."),
      t("Bea", "Switching to incremental loads would take minutes."),
      t("Abe", "The analytics team wants fresher dashboards."),
    ],
  ],
  sales: [
    "Sales pipeline",
    [
      t("Cal", "The pipeline for next quarter is two million dollars."),
      t("Dot", "Three deals are stuck in procurement."),
      t("Cal", "We should offer a pilot to speed them up."),
    ],
  ],
  design: [
    "Design critique",
    [
      t("Eli", "The new onboarding screens feel crowded."),
      t("Fay", "Fewer fields on the signup form would help."),
      t("Eli", "Let us test two versions with users."),
    ],
  ],
  budget: [
    "Budget planning",
    [
      t("Gil", "Marketing asks for a larger budget next year."),
      t("Hal", "Engineering headcount grows by five."),
      t("Gil", "Travel spending gets cut by a third."),
    ],
  ],
  infra: [
    "Infrastructure sync",
    [
      t("Ian", "Our cloud bill rose by thirty percent."),
      t("Jen", "Idle staging servers run all weekend."),
      t("Ian", "Shut them down automatically at night."),
    ],
  ],
  partnership: [
    "Partnership call",
    [
      t("Ken", "The reseller in Brazil wants exclusive rights."),
      t("Lea", "Exclusivity for two years is too long."),
      t("Ken", "We can offer one year with targets."),
    ],
  ],
  retro: [
    "Sprint retrospective",
    [
      t("Max", "We shipped the export feature on time."),
      t("Ned", "Code reviews took too long this sprint."),
      t("Max", "Reviews should happen within one day."),
    ],
  ],
  accessibility: [
    "Accessibility review",
    [
      t("Ola", "Screen readers cannot reach the settings menu."),
      t("Pat", "Several buttons have no labels."),
      t("Ola", "We fix the keyboard navigation first."),
    ],
  ],
  events: [
    "Conference planning",
    [
      t("Ray", "We have a booth at the developer conference in Berlin."),
      t("Sue", "Two engineers will give talks."),
      t("Ray", "Swag must arrive a week before."),
    ],
  ],
  wellbeing: [
    "Team health check",
    [
      t("Tom", "Several people feel burned out after the launch."),
      t("Ute", "We should limit meetings on Fridays."),
      t("Tom", "Everyone takes a recovery day next week."),
    ],
  ],
  compliance: [
    "Compliance update",
    [
      t("Val", "The GDPR request process takes too long."),
      t("Wil", "Deleting a customer's data must finish within thirty days."),
      t("Val", "We automate the export of personal data."),
    ],
  ],
};

/** query → the notes that answer it (the first listed is the best). */
export const QUERIES = [
  ["Lisbon lease", ["lisbon"]],
  ["relocation budget", ["lisbon", "budget"]],
  ["how much does it cost to move the office abroad", ["lisbon"]],
  ['"senior designer"', ["hiring"]],
  ["which candidate should get an offer", ["hiring"]],
  ["customers leaving", ["churn", "okr"]],
  ["database outage", ["outage"]],
  ["why did the site go down", ["outage"]],
  ["raise prices", ["pricing"]],
  ["team trip to the mountains", ["offsite"]],
  ["password hashing", ["security"]],
  ["mobile app plans", ["roadmap"]],
  ["first day for new engineers", ["onboarding"]],
  ["podcast ads", ["marketing"]],
  ["too many support tickets", ["support"]],
  ["vendor contract termination", ["legal"]],
  ["slow nightly exports", ["data"]],
  ["reduce cloud costs", ["infra"]],
  ["exclusive reseller", ["partnership"]],
  ["people are exhausted", ["wellbeing"]],
];

const mmss = (i) => `00:${String(i * 10).padStart(2, "0")}`;

export async function evaluate(server, modes = ["fulltext", "semantic", "hybrid"]) {
  const ids = {};
  for (const [key, [title, lines]] of Object.entries(CORPUS))
    ids[key] = (
      await api(server, "POST", "/v1/notes", {
        title,
        summary: "-",
        enhancedNote: "-",
        transcripts: lines.map((l, i) => ({ ...l, startTimestamp: mmss(i), endTimestamp: mmss(i + 1) })),
      })
    ).note.id;
  // Meaning-based search needs every note embedded: indexing runs in the background.
  for (let i = 0; i < 600; i++) {
    const r = await api(
      server,
      "GET",
      `/v1/search?${new URLSearchParams({ q: "meeting", mode: "semantic", limit: "50" })}`,
    ).catch(() => null);
    if (r && r.results.length >= Object.keys(CORPUS).length) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  const out = {};
  for (const mode of modes) {
    let recall = 0;
    let rr = 0;
    for (const [q, relevant] of QUERIES) {
      const r = await api(server, "GET", `/v1/search?${new URLSearchParams({ q, mode, limit: "10" })}`);
      const got = r.results.map((x) => x.note.id);
      const want = relevant.map((k) => ids[k]);
      recall += want.filter((id) => got.includes(id)).length / want.length;
      const first = got.findIndex((id) => want.includes(id));
      rr += first < 0 ? 0 : 1 / (first + 1);
    }
    out[mode] = { recallAt10: recall / QUERIES.length, mrr: rr / QUERIES.length };
  }
  return out;
}

export async function benchSearchEval() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "notula-eval-"));
  const server = await startServer(dataDir, [], { NOTULA_EMBEDDINGS: "local" });
  try {
    const result = await evaluate(server);
    console.log(`\nsearch quality: ${Object.keys(CORPUS).length} meetings, ${QUERIES.length} labelled queries\n`);
    console.log("| mode | recall@10 | MRR |\n|---|---:|---:|");
    for (const [mode, r] of Object.entries(result))
      console.log(`| ${mode} | ${r.recallAt10.toFixed(2)} | ${r.mrr.toFixed(2)} |`);
    return result;
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
