// The floors of src/ as docs/architecture.md draws them, read back from the boundary
// rules dependency-cruiser enforces (.dependency-cruiser.cjs), so the drawing is the rule.
import { createRequire } from "node:module";

interface Rule {
  name: string;
  from: { path: string };
  to: { path: string };
}

const namesOf = (pathRule: string) =>
  /^\^src\/\((.*)\)\(\$\|\/\)$/
    .exec(pathRule)![1]
    .split("|")
    .map((n) => n.replace(/\\\./g, "."));

export function floors(): string[][] {
  const config = createRequire(import.meta.url)("../../.dependency-cruiser.cjs") as { forbidden: Rule[] };
  const upward = config.forbidden.filter((r) => /^no-upward-from-/.test(r.name));
  const below = upward.map((r) => namesOf(r.from.path));
  // The top floor has no rule of its own: it is what the last rule keeps the floor under it from.
  const top = namesOf(upward[upward.length - 1].to.path);
  return [...below, top];
}

/** What each floor holds, in a line. A floor the rules name and this does not is an error: say what it is. */
const HOLDS: Record<string, string> = {
  cli: "the commands",
  server: "createApp(deps) composing the surfaces; start-up",
  runtime: "the runtime: database, store, queue with every job kind registered (runtime/jobs.ts), services",
  web: "the web app",
  mcp: "the MCP server",
  oauth: "the OAuth pages and routes",
  backup: "backups",
  http: "the kit every surface uses: session cookie, request context, API-key authentication, rate limits, request log, errors",
  pipeline: "processing a note: decode → transcribe → summarize → index",
  services: "the rules of each domain, no web framework; services/oauth the authorization server",
  ai: "engines and models",
  jobs: "the durable job queue",
  webhooks: "the webhook outbox and delivery",
  calendars: "reading ICS and CalDAV calendars, and their meetings",
  mail: "the mails notula sends, and sending them through the job queue",
  db: "repositories (the only code that speaks SQL), schema, migrations",
  storage: "audio stores, the data-dir lock",
  shared: "zod schemas shared by the server, the CLI and MCP; endpoint names; fixed vocabularies",
  config: "the settings table and the one typed configuration; the command line's environment",
  net: "every outbound connection: one guarded way out per purpose (webhooks, calendars, mail, AI, speech, embeddings, models), its address checked when saved and again at connect time",
  core: "what everything may use, importing nothing of ours: errors, clock, ids, the principal, the access policy, counters, passwords, secret box, logger",
};

export function renderFloors(): string {
  const lines = floors()
    .map((floor) => {
      const missing = floor.filter((f) => !HOLDS[f]);
      if (missing.length) throw new Error(`scripts/docs/floors.ts: say what ${missing.join(", ")} holds`);
      return `${`${floor.join(", ")} `.padEnd(26)}${floor.map((f) => HOLDS[f]).join("; ")}`;
    })
    .reverse();
  return ["```text", ...lines, "```"].join("\n");
}
