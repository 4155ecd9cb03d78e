// The access matrix: every person the policy tells apart × every resource × every
// operation × every surface (REST, MCP, web pages and forms, search, webhooks, the
// CLI), each expected outcome computed from the policy itself (src/core/access.ts)
// over the facts of the resource, and asserted against the running server. Every
// REST operation of the OpenAPI document and every MCP tool must appear in the
// matrix: a new route that is not added here fails the last test.
import { textVersion } from "../../src/shared/text-version.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  actionItemPolicy,
  folderPolicy,
  invitePolicy,
  notePolicy,
  ownedPolicy,
  calendarPolicy,
  workspacePolicy,
  type Actor,
  type FolderFacts,
  type NoteFacts,
} from "../../src/core/access.js";
import { client } from "../helpers/http.js";
import { admin as adminCli, run, startServer, tempDir, type TestServer } from "../helpers/server.js";
import { actorOf, buildWorld, EVERYONE, type Who, type World } from "../helpers/world.js";
import { until } from "../helpers/until.js";

let server: TestServer;
let w: World;
let receiver: http.Server;
const received: { path: string; body: any }[] = [];
let hookBase = "";

const CALENDAR = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//notula tests//EN",
  "BEGIN:VEVENT",
  "UID:matrix@example.com",
  "DTSTAMP:20260101T000000Z",
  "SUMMARY:Matrix meeting",
  `DTSTART:${new Date(Date.now() + 86_400_000)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}`,
  "DURATION:PT1H",
  "END:VEVENT",
  "END:VCALENDAR",
].join("\r\n");

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    // A calendar feed for the calendar cases; everything else is a webhook delivery.
    if (req.method === "GET" && req.url?.startsWith("/calendar")) return res.end(CALENDAR);
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(body || "{}") });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // With the real indexing on, as a server runs: every note written here is embedded by the
  // bundled model in the background while the matrix reads, edits and deletes it.
  server = await startServer({
    args: ["--no-rate-limit", "--allow-private-webhooks", "--allow-private-calendars"],
    env: { NOTULA_EMBEDDINGS: "local" },
  });
  w = await buildWorld(server);
}, 120_000);
afterAll(async () => {
  await w?.close();
  await server?.stop();
  receiver?.close();
});

// ---------------------------------------------------------------------------
// Expected outcomes

type Decision = "ok" | "forbidden" | "hidden" | "invalid";
const SCOPES: Record<Who, Set<string>> = {
  admin: new Set(["notes", "folders", "users", "templates"]),
  inside: new Set(["notes", "folders", "users", "templates"]),
  outside: new Set(["notes", "folders", "users", "templates"]),
  noscope: new Set(["templates"]),
  stranger: new Set(["notes", "folders", "users", "templates"]),
  oauth: new Set(), // REST does not take OAuth tokens at all
};
const STATUS: Record<Decision, number> = { ok: 200, forbidden: 403, hidden: 404, invalid: 400 };

/** What REST must answer: OAuth tokens are 401, a missing scope 403, else the policy's decision. */
function restStatus(who: Who, scope: string | null, decision: Decision): number {
  if (who === "oauth") return 401;
  if (scope && !SCOPES[who].has(scope)) return 403;
  return STATUS[decision];
}
/** Whether a list or search shows the item: the credential opens the list, and the policy lets it see the item. */
const listed = (who: Who, scope: string | null, sees: boolean) => restStatus(who, scope, "ok") === 200 && sees;
/** see → ok, can see but not do → forbidden, cannot see → hidden. */
const decide = (sees: boolean, may: boolean): Decision => (!sees ? "hidden" : may ? "ok" : "forbidden");

const failures: string[] = [];
const covered = {
  rest: new Set<string>(),
  mcp: new Set<string>(),
  web: new Set<string>(),
  cli: new Set<string>(),
  webhook: new Set<string>(),
};
let cases = 0;
function check(surface: keyof typeof covered, op: string, label: string, actual: unknown, expected: unknown) {
  cases++;
  covered[surface].add(op);
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    failures.push(`${surface} ${op} ${label}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

// ---------------------------------------------------------------------------
// Fixtures

interface NoteFixture {
  id: string;
  facts: NoteFacts;
  word: string;
}
type NoteKind = "team" | "board" | "diary" | "public";
const NOTE_KINDS: Record<
  NoteKind,
  { by: Who; visibility: "workspace" | "only-me" | "public"; folder: "shared" | "private" | null }
> = {
  team: { by: "admin", visibility: "workspace", folder: "shared" },
  board: { by: "inside", visibility: "workspace", folder: "private" },
  diary: { by: "inside", visibility: "only-me", folder: null },
  public: { by: "outside", visibility: "public", folder: null },
};
let seq = 0;
async function makeNote(kind: NoteKind): Promise<NoteFixture> {
  const k = NOTE_KINDS[kind];
  const word = `${kind}word${++seq}x`;
  const folderIds = k.folder === "shared" ? [w.sharedFolder] : k.folder === "private" ? [w.privateFolder] : [];
  const r = await w.people[k.by].api("POST", "/v1/notes", {
    title: `${kind} meeting ${seq}`,
    visibility: k.visibility,
    folderIds,
    userWrittenNote: `Notes mentioning ${word}.`,
    summary: "Summary.",
    transcripts: [
      { speaker: "A", text: `We spoke about ${word} today.`, startTimestamp: "00:01", endTimestamp: "00:05" },
    ],
  });
  if (r.status !== 200) throw new Error(`fixture ${kind}: ${r.text}`);
  return {
    id: r.body.note.id,
    word,
    facts: { workspaceId: w.workspaceId, createdBy: w.people[k.by].userId, visibility: k.visibility, folderIds },
  };
}

async function makeFolder(isPrivate: boolean): Promise<FolderFacts> {
  const owner = isPrivate ? w.people.inside : w.people.admin;
  const r = await owner.api("POST", "/v1/folders", { name: `F${++seq}`, ownerUserId: owner.userId, isPrivate });
  return { id: r.body.folder.id, workspaceId: w.workspaceId, ownerUserId: owner.userId, isPrivate };
}
/** The fixed folders' facts; a private folder hides itself from the people outside it. */
const folderFacts = (which: "shared" | "private"): FolderFacts =>
  which === "shared"
    ? { id: w.sharedFolder, workspaceId: w.workspaceId, ownerUserId: w.people.admin.userId, isPrivate: false }
    : { id: w.privateFolder, workspaceId: w.workspaceId, ownerUserId: w.people.inside.userId, isPrivate: true };
/** A freshly made private folder hides itself from everyone but its owner. */
const actorFor = (who: Who, extraHidden: string[] = []): Actor => {
  const a = actorOf(w, who);
  return who === "inside" ? a : { ...a, hiddenFolderIds: new Set([...a.hiddenFolderIds, ...extraHidden]) };
};

const REST_PEOPLE = EVERYONE;
const WEB_PEOPLE: Who[] = ["admin", "inside", "outside"];

async function mcpCall(who: Who, tool: string, args: Record<string, unknown>) {
  return (await w.mcp[who].callTool({ name: tool, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    content: { text: string }[];
  };
}

async function web(who: Who, method: string, path: string, form?: Record<string, string | string[]>) {
  const res = await fetch(server.url + path, {
    method,
    redirect: "manual",
    headers: {
      cookie: w.people[who].cookie!,
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form
      ? new URLSearchParams(
          Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x])),
        )
      : undefined,
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}
const csrfOf = async (who: Who) => /name="csrf" value="([^"]+)"/.exec((await web(who, "GET", "/notes/new")).text)![1];

// ---------------------------------------------------------------------------

describe("the access matrix", () => {
  it("notes: read, list, filter, search, edit, widen and delete, on REST, MCP, the web app and the CLI", async () => {
    const notes: Record<NoteKind, NoteFixture> = {
      team: await makeNote("team"),
      board: await makeNote("board"),
      diary: await makeNote("diary"),
      public: await makeNote("public"),
    };
    // The words shown with each result, on every surface: a word every fixture says finds
    // all a person may see, and each result shows its own words, never another note's
    // (the ids alone would not show a text read from the wrong row).
    const ownWord = new Map(Object.values(notes).map((n) => [n.id, n.word]));
    const foreignWords = (id: string, text: string) =>
      [...text.matchAll(/[a-z]+word\d+x/g)].map((m) => m[0]).filter((word) => word !== ownWord.get(id));
    for (const who of EVERYONE) {
      const api = w.people[who].api;
      const shown: { where: string; id: string; text: string }[] = [];
      for (const mode of ["fulltext", "hybrid"])
        for (const r of (await api("GET", `/v1/search?q=mentioning&mode=${mode}&limit=50`)).body?.results ?? [])
          for (const m of r.matches) shown.push({ where: `search ${mode}`, id: r.note.id, text: m.text });
      const asked = await api("POST", "/v1/ask", { question: "What was mentioning?" }, { accept: "application/json" });
      for (const c of asked.body?.citations ?? []) shown.push({ where: "ask", id: c.noteId, text: c.quote });
      for (const tool of ["svc_search_notes", "svc_search_knowledge"]) {
        const found = (await mcpCall(who, tool, { query: "mentioning" })).structuredContent;
        for (const x of found?.notes ?? found?.results ?? []) shown.push({ where: tool, id: x.id, text: x.snippet });
      }
      if (WEB_PEOPLE.includes(who))
        for (const item of (await web(who, "GET", "/notes?said=mentioning")).text
          .split('<a class="title" href="/notes/')
          .slice(1))
          shown.push({ where: "web", id: /^([^"]+)"/.exec(item)![1], text: item.replace(/<[^>]+>/g, " ") });
      for (const s of shown)
        check(
          s.where.startsWith("svc") ? "mcp" : s.where === "web" ? "web" : "rest",
          s.where === "ask"
            ? "ask"
            : s.where.startsWith("svc")
              ? s.where
              : s.where === "web"
                ? "GET /notes?said"
                : "search",
          `${who} words shown with ${s.id}`,
          foreignWords(s.id, s.text),
          [],
        );
    }
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const a = actorOf(w, who);
      for (const [kind, n] of Object.entries(notes)) {
        const sees = notePolicy.see(a, n.facts);
        const label = `${who} × ${kind}`;
        check(
          "rest",
          "getNote",
          label,
          (await api("GET", `/v1/notes/${n.id}`)).status,
          restStatus(who, "notes", decide(sees, true)),
        );
        check(
          "rest",
          "listSpeakers",
          label,
          (await api("GET", `/v1/notes/${n.id}/speakers`)).status,
          restStatus(who, "notes", decide(sees, true)),
        );
        check(
          "rest",
          "exportNote",
          label,
          (await api("GET", `/v1/notes/${n.id}/export?format=srt`)).status,
          restStatus(who, "notes", decide(sees, true)),
        );
        const list = await api("GET", "/v1/notes?limit=100");
        check(
          "rest",
          "listNotes",
          label,
          (list.body?.items ?? []).some((x: { id: string }) => x.id === n.id),
          listed(who, "notes", sees),
        );
        for (const f of n.facts.folderIds) {
          const byFolder = await api("GET", `/v1/notes?limit=100&folderIds=${f}`);
          check(
            "rest",
            "listNotes",
            `${label} ?folderIds`,
            (byFolder.body?.items ?? []).some((x: { id: string }) => x.id === n.id),
            listed(who, "notes", sees),
          );
        }
        for (const mode of ["fulltext", "hybrid"]) {
          const found = await api("GET", `/v1/search?q=${n.word}&mode=${mode}`);
          check(
            "rest",
            "search",
            `${label} ${mode}`,
            (found.body?.results ?? []).some((x: { note: { id: string } }) => x.note.id === n.id),
            listed(who, "notes", sees),
          );
        }
        const asked = await api(
          "POST",
          "/v1/ask",
          { question: `What about ${n.word}?` },
          { accept: "application/json" },
        );
        check(
          "rest",
          "ask",
          label,
          (asked.body?.citations ?? []).some((c: { noteId: string }) => c.noteId === n.id),
          listed(who, "notes", sees),
        );
        check(
          "rest",
          "updateNote",
          `${label} title`,
          (await api("PATCH", `/v1/notes/${n.id}`, { title: `${kind} meeting (edited by ${who})` })).status,
          restStatus(who, "notes", decide(sees, notePolicy.edit(a, n.facts))),
        );
        check(
          "rest",
          "renameSpeaker",
          label,
          (await api("PATCH", `/v1/notes/${n.id}/speakers`, { label: "A", name: "Ann" })).status,
          restStatus(who, "notes", decide(sees, notePolicy.edit(a, n.facts))),
        );
        const recap = restStatus(who, "notes", decide(sees, notePolicy.emailRecap(a, n.facts)));
        check("rest", "previewRecap", label, (await api("GET", `/v1/notes/${n.id}/recap`)).status, recap);
        // This server sends no mail: where the policy allows, the answer is 409 (no SMTP), after the access decision.
        const sent = (await api("POST", `/v1/notes/${n.id}/recap`, {})).status;
        check("rest", "sendRecap", label, recap === 200 ? sent === 409 : sent, recap === 200 ? true : recap);
        // Processing again may meet processing already under way (409): the access decision is the 404 line.
        for (const op of ["reprocessNote", "enhanceNote"] as const) {
          const s = (
            await api(
              "POST",
              `/v1/notes/${n.id}/${op === "reprocessNote" ? "reprocess" : "enhance"}`,
              op === "enhanceNote" ? {} : undefined,
            )
          ).status;
          const want = restStatus(who, "notes", decide(sees, notePolicy.edit(a, n.facts)));
          check("rest", op, label, want === 200 ? [200, 409].includes(s) : s, want === 200 ? true : want);
        }
        // Widening and deleting change the note: each on a fresh one of the same kind.
        const fresh = await makeNote(kind as NoteKind);
        const other = fresh.facts.visibility === "workspace" ? "private" : "workspace";
        check(
          "rest",
          "updateNote",
          `${label} visibility`,
          (await api("PATCH", `/v1/notes/${fresh.id}`, { visibility: other })).status,
          restStatus(who, "notes", decide(sees, notePolicy.widen(a, fresh.facts))),
        );
        const doomed = await makeNote(kind as NoteKind);
        check(
          "rest",
          "deleteNote",
          label,
          (await api("DELETE", `/v1/notes/${doomed.id}`)).status,
          restStatus(who, "notes", decide(sees, notePolicy.delete(a, doomed.facts))),
        );
      }
      // Filing a new note: in the folders one can see.
      for (const which of ["shared", "private"] as const) {
        const f = folderFacts(which);
        const s = (await api("POST", "/v1/notes", { title: "Filed", folderIds: [f.id] })).status;
        check(
          "rest",
          "createNote",
          `${who} into ${which} folder`,
          s,
          restStatus(who, "notes", folderPolicy.file(a, f) ? "ok" : "invalid"),
        );
      }
    }

    // Share links: a public note's link goes only to those who see the note, opens for
    // anyone holding it, and dies when the note stops being public.
    for (const kind of ["board", "team"] as const) {
      const shared = await makeNote(kind);
      const by = w.people[NOTE_KINDS[kind].by];
      await by.api("PATCH", `/v1/notes/${shared.id}`, { visibility: "public" });
      const facts: NoteFacts = { ...shared.facts, visibility: "public" };
      const link = (await by.api("GET", `/v1/notes/${shared.id}`)).body.note.shareUrl as string;
      for (const who of REST_PEOPLE) {
        const got = await w.people[who].api("GET", `/v1/notes/${shared.id}`);
        check(
          "rest",
          "getNote",
          `${who} × public ${kind} share link`,
          Boolean(got.body?.note?.shareUrl),
          listed(who, "notes", notePolicy.see(actorOf(w, who), facts)),
        );
      }
      const path = new URL(link).pathname;
      check("web", "GET /s/:token", `anyone with the ${kind} link`, (await fetch(server.url + path)).status, 200);
      await by.api("PATCH", `/v1/notes/${shared.id}`, { visibility: "workspace" });
      check(
        "web",
        "GET /s/:token",
        `the ${kind} link once the note is no longer public`,
        (await fetch(server.url + path)).status,
        404,
      );
    }

    // MCP: the same notes through the tools (the OAuth token reads as its member).
    for (const who of EVERYONE) {
      const a = actorOf(w, who);
      const scoped = SCOPES[who].has("notes") || who === "oauth";
      for (const [kind, n] of Object.entries(notes)) {
        const sees = scoped && notePolicy.see(a, n.facts);
        const label = `${who} × ${kind}`;
        check("mcp", "svc_get_note", label, !(await mcpCall(who, "svc_get_note", { id: n.id })).isError, sees);
        const listedNotes = (await mcpCall(who, "svc_list_notes", { limit: 100 })).structuredContent?.notes ?? [];
        check(
          "mcp",
          "svc_list_notes",
          label,
          listedNotes.some((x: { id: string }) => x.id === n.id),
          sees,
        );
        const hits = (await mcpCall(who, "svc_search_notes", { query: n.word })).structuredContent?.notes ?? [];
        check(
          "mcp",
          "svc_search_notes",
          label,
          hits.some((x: { id: string }) => x.id === n.id),
          sees,
        );
        const knowledge =
          (await mcpCall(who, "svc_search_knowledge", { query: n.word })).structuredContent?.results ?? [];
        check(
          "mcp",
          "svc_search_knowledge",
          label,
          knowledge.some((x: { id: string }) => x.id === n.id),
          sees,
        );
      }
    }

    // The web app: pages, the list, search by what was said, the status poll, and the forms.
    for (const who of WEB_PEOPLE) {
      const a = actorOf(w, who);
      const csrf = await csrfOf(who);
      for (const [kind, n] of Object.entries(notes)) {
        const sees = notePolicy.see(a, n.facts);
        const label = `${who} × ${kind}`;
        const page = await web(who, "GET", `/notes/${n.id}`);
        check("web", "GET /notes/:id", label, page.status, sees ? 200 : 404);
        if (!sees)
          check("web", "GET /notes/:id", `${label} leaks no folder name`, page.text.includes("Board secrets"), false);
        check(
          "web",
          "GET /notes/:id/status",
          label,
          (await web(who, "GET", `/notes/${n.id}/status`)).status,
          sees ? 200 : 404,
        );
        check("web", "GET /notes/:id/audio", label, (await web(who, "GET", `/notes/${n.id}/audio`)).status, 404);
        check(
          "web",
          "GET /notes/:id/export",
          label,
          (await web(who, "GET", `/notes/${n.id}/export?format=md`)).status,
          sees ? 200 : 404,
        );
        for (const f of n.facts.folderIds)
          check(
            "web",
            "GET /notes?folderIds",
            label,
            (await web(who, "GET", `/notes?folderIds=${f}`)).text.includes(`/notes/${n.id}`),
            sees,
          );
        check(
          "web",
          "GET /notes?said",
          label,
          (await web(who, "GET", `/notes?said=${n.word}`)).text.includes(`/notes/${n.id}`),
          sees,
        );
        // As the form sends it: the folders it shows ticked stay ticked.
        const edited = await web(who, "POST", `/notes/${n.id}`, {
          csrf,
          title: `${kind} (web edit)`,
          visibility: n.facts.visibility,
          userWrittenNote: `Notes mentioning ${n.word}.`,
          folderIds: [...n.facts.folderIds],
        });
        check("web", "POST /notes/:id", label, edited.status, sees ? 303 : 404);
        const recap = decide(sees, notePolicy.emailRecap(a, n.facts));
        const recapStatus = STATUS[recap];
        check(
          "web",
          "GET /notes/:id/recap",
          label,
          (await web(who, "GET", `/notes/${n.id}/recap`)).status,
          recapStatus,
        );
        // No SMTP on this server: where the policy allows, the page says so (409) after the access decision.
        const recapSent = await web(who, "POST", `/notes/${n.id}/recap`, { csrf, recipients: "ann@example.com" });
        check("web", "POST /notes/:id/recap", label, recapSent.status, recap === "ok" ? 409 : recapStatus);
        const doomed = await makeNote(kind as NoteKind);
        const deleted = await web(who, "POST", `/notes/${doomed.id}/delete`, { csrf });
        check(
          "web",
          "POST /notes/:id/delete",
          label,
          deleted.status,
          !sees ? 404 : notePolicy.delete(a, doomed.facts) ? 303 : 403,
        );
        // The Share panel, in its order: make the note public, say what its link shows,
        // stop sharing. Each widens or narrows who reads it, so each is for whoever may
        // widen it; asking for what the note already is changes nothing and is let through.
        const target = await makeNote(kind as NoteKind);
        const widen = notePolicy.widen(a, target.facts);
        const share = (action: string) =>
          web(who, "POST", `/notes/${target.id}/share`, {
            csrf,
            action,
            confirmPublic: "1",
            shareTranscript: "1",
            shareRecording: "1",
          });
        let visibility = target.facts.visibility;
        const madePublic = await share("public");
        check(
          "web",
          "POST /notes/:id/share public",
          label,
          madePublic.status,
          !sees ? 404 : visibility === "public" || widen ? 303 : 403,
        );
        if (sees && widen) visibility = "public";
        const shows = await share("options");
        check(
          "web",
          "POST /notes/:id/share options",
          label,
          shows.status,
          !sees ? 404 : !widen ? 403 : visibility === "public" ? 303 : 400,
        );
        const stopped = await share("stop");
        check(
          "web",
          "POST /notes/:id/share stop",
          label,
          stopped.status,
          !sees ? 404 : visibility === "workspace" || widen ? 303 : 403,
        );
      }
    }

    // The CLI, as the binary, for the two members and the notes that tell them apart.
    for (const who of ["inside", "outside"] as const) {
      const env = {
        NOTULA_URL: server.url,
        NOTULA_API_KEY: w.people[who].bearer,
        XDG_CONFIG_HOME: tempDir("notula-cfg-"),
        NOTULA_NO_KEYCHAIN: "1",
        NO_COLOR: "1",
      };
      const a = actorOf(w, who);
      for (const kind of ["board", "diary"] as const) {
        const n = notes[kind];
        const got = await run(["notes", "get", n.id, "--json"], { env });
        check("cli", "notes get", `${who} × ${kind}`, got.code, notePolicy.see(a, n.facts) ? 0 : 3);
      }
      const listing = await run(["notes", "list", "--json", "--limit", "100"], { env });
      check(
        "cli",
        "notes list",
        who,
        [notes.board.id, notes.diary.id].filter((id) => listing.stdout.includes(id)).length,
        who === "inside" ? 2 : 0,
      );
      const searched = await run(["notes", "search", notes.board.word, "--json"], { env });
      check("cli", "notes search", who, searched.stdout.includes(notes.board.id), who === "inside");
      const asked = await run(["ask", `What about ${notes.board.word}?`, "--json"], { env });
      check("cli", "ask", who, asked.stdout.includes(notes.board.id), who === "inside");
    }

    // Asking in the web app: an answer cites only notes the asker may see.
    for (const who of WEB_PEOPLE) {
      const a = actorOf(w, who);
      const csrf = await csrfOf(who);
      for (const kind of ["board", "diary"] as const) {
        const n = notes[kind];
        const posted = await web(who, "POST", "/ask", { csrf, question: `What about ${n.word}?` });
        check("web", "POST /ask", `${who} × ${kind}`, posted.status, 303);
        const thread = await web(who, "GET", posted.location!.replace(/#.*$/, ""));
        check(
          "web",
          "GET /ask/threads/:id",
          `${who} × ${kind} cites`,
          thread.text.includes(`/notes/${n.id}`),
          notePolicy.see(a, n.facts),
        );
      }
    }
  }, 300_000);

  it("folders: see, rename, make private, choose members, delete, and file into", async () => {
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      for (const which of ["shared", "private"] as const) {
        const f = folderFacts(which);
        const a = actorOf(w, who);
        const sees = folderPolicy.see(a, f);
        const label = `${who} × ${which}`;
        const list = await api("GET", "/v1/folders");
        check(
          "rest",
          "listFolders",
          label,
          (list.body?.folders ?? []).some((x: { id: string }) => x.id === f.id),
          listed(who, "folders", sees),
        );
        // What the list says the caller may do with it is the policy's word.
        const item = (list.body?.folders ?? []).find((x: { id: string }) => x.id === f.id);
        if (item) check("rest", "listFolders", `${label} mayManage`, item.mayManage, folderPolicy.manage(a, f));
        // The settings page offers the folder's controls only to those who may use them.
        if (WEB_PEOPLE.includes(who) && sees) {
          const page = (await web(who, "GET", "/settings/folders")).text;
          for (const control of ["", "/privacy", "/delete"])
            check(
              "web",
              "GET /settings/folders",
              `${label} ${control || "/rename"} control`,
              page.includes(`action="/settings/folders/${f.id}${control}"`),
              folderPolicy.manage(a, f),
            );
        }
        check(
          "rest",
          "listFolderMembers",
          label,
          (await api("GET", `/v1/folders/${f.id}/members`)).status,
          restStatus(who, "folders", decide(sees, true)),
        );
        check(
          "rest",
          "getFolder",
          label,
          (await api("GET", `/v1/folders/${f.id}`)).status,
          restStatus(who, "folders", decide(sees, true)),
        );
        check(
          "rest",
          "updateFolder",
          `${label} rename`,
          (await api("PATCH", `/v1/folders/${f.id}`, { name: which === "shared" ? "Team room" : "Board secrets" }))
            .status,
          restStatus(who, "folders", decide(sees, folderPolicy.manage(a, f))),
        );
        // Members of the workspace: a private folder's name only for those who see it.
        const members = await api("GET", "/v1/workspace/members?limit=100");
        const named = (members.body?.items ?? []).some((m: { folders: { id: string }[] }) =>
          m.folders.some((x) => x.id === f.id),
        );
        check("rest", "listMembers", `${label} folder names`, named, listed(who, "users", sees));
        const one = await api("GET", `/v1/workspace/members/${w.people.inside.userId}`);
        // "inside" is in the private folder (its owner), not in the shared one (the admin's).
        check(
          "rest",
          "getMember",
          `${label} folder names`,
          (one.body?.member?.folders ?? []).some((x: { id: string }) => x.id === f.id),
          which === "private" && listed(who, "users", sees) && who !== "stranger",
        );

        // The changes that need the owner or an admin, each on a fresh folder of the kind.
        const manage = async (op: string, run: (id: string) => Promise<number>, extra = "", outsideJoins = false) => {
          const fresh = await makeFolder(which === "private");
          // A fresh private folder has its owner ("inside") alone, unless "outside" is added first.
          const joined = outsideJoins && ["outside", "noscope", "oauth"].includes(who);
          const fa = actorFor(who, fresh.isPrivate && !joined ? [fresh.id] : []);
          check(
            "rest",
            op,
            `${label}${extra}`,
            await run(fresh.id),
            restStatus(who, "folders", decide(folderPolicy.see(fa, fresh), folderPolicy.manage(fa, fresh))),
          );
        };
        await manage(
          "updateFolder",
          async (id) => (await api("PATCH", `/v1/folders/${id}`, { isPrivate: which === "shared" })).status,
          " privacy",
        );
        await manage("deleteFolder", async (id) => (await api("DELETE", `/v1/folders/${id}`)).status);
        await manage(
          "addFolderMember",
          async (id) => (await api("PUT", `/v1/folders/${id}/members/${w.people.outside.userId}`)).status,
        );
        await manage(
          "removeFolderMember",
          async (id) => {
            const owner = which === "private" ? w.people.inside : w.people.admin;
            await owner.api("PUT", `/v1/folders/${id}/members/${w.people.outside.userId}`);
            return (await api("DELETE", `/v1/folders/${id}/members/${w.people.outside.userId}`)).status;
          },
          "",
          true,
        );
      }
      // Creating: one's own folder, and one owned by somebody else.
      const a = actorOf(w, who);
      const own = await api("POST", "/v1/folders", { name: "Mine", ownerUserId: w.people[who].userId });
      check("rest", "createFolder", `${who} own`, own.status, restStatus(who, "folders", "ok"));
      const someoneElse = who === "inside" ? w.people.outside.userId : w.people.inside.userId;
      const theirs = await api("POST", "/v1/folders", { name: "Theirs", ownerUserId: someoneElse });
      check(
        "rest",
        "createFolder",
        `${who} for another`,
        theirs.status,
        restStatus(
          who,
          "folders",
          who === "stranger" ? "invalid" : folderPolicy.create(a, someoneElse) ? "ok" : "forbidden",
        ),
      );
    }
  }, 120_000);

  it("members, groups, the workspace, tags and AI configuration: admins manage, members read", async () => {
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const a = actorOf(w, who);
      const admin = workspacePolicy.manage(a) ? "ok" : "forbidden";
      check("rest", "getMe", who, (await api("GET", "/v1/me")).status, who === "oauth" ? 401 : 200);
      check("rest", "getWorkspace", who, (await api("GET", "/v1/workspace")).status, restStatus(who, "users", "ok"));
      check(
        "rest",
        "getWorkspaceArchive",
        who,
        (await api("GET", "/v1/workspace/archive")).status,
        restStatus(who, "notes", workspacePolicy.archive(a) ? "ok" : "forbidden"),
      );
      const name =
        who === "stranger" ? "Elsewhere" : (await w.people.admin.api("GET", "/v1/workspace")).body.workspace.name;
      check(
        "rest",
        "updateWorkspace",
        who,
        (await api("PATCH", "/v1/workspace", { name })).status,
        restStatus(who, "users", admin),
      );
      check(
        "rest",
        "listMembers",
        who,
        (await api("GET", "/v1/workspace/members")).status,
        restStatus(who, "users", "ok"),
      );
      const outsider = await w.people.admin.api("GET", `/v1/workspace/members/${w.people.outside.userId}`);
      check(
        "rest",
        "getMember",
        who,
        (await api("GET", `/v1/workspace/members/${outsider.body.member.id}`)).status,
        restStatus(who, "users", who === "stranger" ? "hidden" : "ok"),
      );
      check(
        "rest",
        "updateMember",
        who,
        (await api("PATCH", `/v1/workspace/members/${outsider.body.member.id}`, { groupIds: [] })).status,
        restStatus(who, "users", who === "stranger" ? "hidden" : admin),
      );
      // Each removal on a member made for it: admins remove them, nobody else can.
      const leavingEmail = `leaving-${who}-${++seq}@example.com`;
      await adminCli(server.dataDir, [
        "users",
        "create",
        "--workspace",
        w.workspaceId,
        "--email",
        leavingEmail,
        "--name",
        "Leaving",
        "--role",
        "member",
      ]);
      const leaving = (
        await w.people.admin.api("GET", `/v1/workspace/members?search=${encodeURIComponent(leavingEmail)}`)
      ).body.items[0].id;
      check(
        "rest",
        "removeMember",
        who,
        (await api("DELETE", `/v1/workspace/members/${leaving}`)).status,
        restStatus(who, "users", who === "stranger" ? "hidden" : admin),
      );
      check(
        "rest",
        "listGroups",
        who,
        (await api("GET", "/v1/workspace/groups")).status,
        restStatus(who, "users", "ok"),
      );
      check(
        "rest",
        "createGroup",
        who,
        (await api("POST", "/v1/workspace/groups", { name: `G ${who} ${++seq}` })).status,
        restStatus(who, "users", admin),
      );
      check("rest", "listTags", who, (await api("GET", "/v1/workspace/tags")).status, restStatus(who, "folders", "ok"));
      check(
        "rest",
        "createTag",
        who,
        (await api("POST", "/v1/workspace/tags", { name: `T ${who} ${++seq}` })).status,
        restStatus(who, "folders", "ok"),
      );
      check("rest", "getAiConfig", who, (await api("GET", "/v1/ai-config")).status, restStatus(who, "templates", "ok"));
      check(
        "rest",
        "updateAiConfig",
        who,
        (await api("PATCH", "/v1/ai-config", { summaryLanguage: null })).status,
        restStatus(who, "templates", workspacePolicy.configureAi(a) ? "ok" : "forbidden"),
      );
      const mail = workspacePolicy.configureMail(a) ? "ok" : "forbidden";
      const mailRead = await api("GET", "/v1/mail-config");
      check("rest", "getMailConfig", who, mailRead.status, restStatus(who, "users", mail));
      check(
        "rest",
        "updateMailConfig",
        who,
        (await api("PATCH", "/v1/mail-config", { smtp: null })).status,
        restStatus(who, "users", mail),
      );
      check(
        "rest",
        "testMailConfig",
        who,
        (await api("POST", "/v1/mail-config/test")).status,
        restStatus(who, "users", mail),
      );
    }
    for (const who of EVERYONE) {
      const scoped = SCOPES[who].has("users") || who === "oauth";
      const members = await mcpCall(who, "svc_list_members", { limit: 50 });
      check("mcp", "svc_list_members", who, !members.isError, scoped);
      if (scoped) {
        const named = members.structuredContent.members.some((m: { folders: { id: string }[] }) =>
          m.folders.some((f) => f.id === w.privateFolder),
        );
        check(
          "mcp",
          "svc_list_members",
          `${who} private folder name`,
          named,
          folderPolicy.see(actorOf(w, who), folderFacts("private")),
        );
      }
      check(
        "mcp",
        "svc_get_workspace",
        who,
        (await mcpCall(who, "svc_get_workspace", {})).structuredContent?.workspace?.id,
        w.people[who].workspaceId,
      );
    }
    // The web's admin pages and forms.
    for (const who of WEB_PEOPLE) {
      const admin = workspacePolicy.manage(actorOf(w, who));
      check(
        "web",
        "GET /settings/members",
        who,
        (await web(who, "GET", "/settings/members")).status,
        admin ? 200 : 403,
      );
      check(
        "web",
        "GET /settings/workspace",
        who,
        (await web(who, "GET", "/settings/workspace")).status,
        admin ? 200 : 403,
      );
      const mailAdmin = workspacePolicy.configureMail(actorOf(w, who));
      const mailPage = await web(who, "GET", "/settings/email");
      check("web", "GET /settings/email", who, mailPage.status, mailAdmin ? 200 : 403);
      const mailCsrf = await csrfOf(who);
      // A form that would change nothing for an admin: removing a server the workspace does not have.
      check(
        "web",
        "POST /settings/email/remove",
        who,
        (await web(who, "POST", "/settings/email/remove", { csrf: mailCsrf })).status,
        mailAdmin ? 303 : 403,
      );
      check(
        "web",
        "POST /settings/email",
        who,
        (await web(who, "POST", "/settings/email", { csrf: mailCsrf, host: "", port: "25", security: "starttls" }))
          .status,
        mailAdmin ? 400 : 403,
      );
      check(
        "web",
        "POST /settings/email/test",
        who,
        (await web(who, "POST", "/settings/email/test", { csrf: mailCsrf })).status,
        mailAdmin ? 303 : 403,
      );
      const aiAdmin = workspacePolicy.configureAi(actorOf(w, who));
      for (const page of [
        "/settings/speech",
        "/settings/speech/status",
        "/settings/speech/speakers/status",
        "/settings/ai",
        "/settings/ai/local/status",
      ])
        check("web", `GET ${page}`, who, (await web(who, "GET", page)).status, aiAdmin ? 200 : 403);
      const aiCsrf = await csrfOf(who);
      check(
        "web",
        "POST /settings/speech/speakers/off",
        who,
        (await web(who, "POST", "/settings/speech/speakers/off", { csrf: aiCsrf })).status,
        aiAdmin ? 303 : 403,
      );
      check(
        "web",
        "POST /settings/ai/remove",
        who,
        (await web(who, "POST", "/settings/ai/remove", { csrf: aiCsrf })).status,
        aiAdmin ? 303 : 403,
      );
      // With no model set, an admin's test is refused beside the form (400); others may not test.
      check(
        "web",
        "POST /settings/ai/test",
        who,
        (await web(who, "POST", "/settings/ai/test", { csrf: aiCsrf })).status,
        aiAdmin ? 400 : 403,
      );
      // An admin's would start a download; who else may is what is checked here.
      if (!aiAdmin)
        check(
          "web",
          "POST /settings/speech/speakers/setup",
          who,
          (await web(who, "POST", "/settings/speech/speakers/setup", { csrf: aiCsrf })).status,
          403,
        );
      if (!aiAdmin)
        check(
          "web",
          "POST /settings/ai/local/setup",
          who,
          (await web(who, "POST", "/settings/ai/local/setup", { csrf: aiCsrf })).status,
          403,
        );
      // With no local model on the server, an admin's choice of it is refused beside the form (400).
      check(
        "web",
        "POST /settings/ai/local/use",
        who,
        (await web(who, "POST", "/settings/ai/local/use", { csrf: aiCsrf })).status,
        aiAdmin ? 400 : 403,
      );
      check(
        "web",
        "GET /settings/folders/:id",
        `${who} private folder`,
        (await web(who, "GET", `/settings/folders/${w.privateFolder}`)).status,
        folderPolicy.see(actorOf(w, who), folderFacts("private")) ? 200 : 404,
      );
      const folders = await web(who, "GET", "/settings/folders");
      check(
        "web",
        "GET /settings/folders",
        `${who} private folder`,
        folders.text.includes("Board secrets"),
        folderPolicy.see(actorOf(w, who), folderFacts("private")),
      );
    }
  }, 120_000);

  it("invites: members invite members, admins anyone; an invite and its link are its sender's and the admins'", async () => {
    const adminInvite = async (legacy: boolean) =>
      (
        await w.people.admin.api("POST", legacy ? "/v1/workspace/invites" : "/v1/invites", {
          email: `invitee-${++seq}@example.com`,
          isUrlInvite: true,
          role: "member",
        })
      ).body.invite as { id: string; code: string };
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const a = actorOf(w, who);
      for (const legacy of [false, true]) {
        const path = legacy ? "/v1/workspace/invites" : "/v1/invites";
        const op = (name: string) => (legacy ? name.replace("Invite", "WorkspaceInvite") : name);
        for (const role of ["admin", "member"] as const)
          check(
            "rest",
            op("createInvite"),
            `${who} as ${role}`,
            (await api("POST", path, { email: `${role}-${who}-${++seq}@example.com`, isUrlInvite: true, role })).status,
            restStatus(who, "users", invitePolicy.create(a, role) ? "ok" : "forbidden"),
          );
        for (const which of ["shared", "private"] as const) {
          const f = folderFacts(which);
          const body = { isUrlInvite: true, role: "member", folderIds: [f.id] };
          if (!legacy)
            check(
              "rest",
              op("createInvite"),
              `${who} into ${which} folder`,
              (await api("POST", path, body)).status,
              restStatus(who, "users", folderPolicy.see(a, f) ? "ok" : "invalid"),
            );
        }
        const theirs = await adminInvite(legacy);
        const facts = { workspaceId: w.workspaceId, ownerUserId: w.people.admin.userId };
        const listing = await api("GET", `${path}?limit=100`);
        const shows = (listing.body?.items ?? []).some(
          (i: { id: string; code: string }) => i.id === theirs.id || i.code === theirs.code,
        );
        check(
          "rest",
          legacy ? "listWorkspaceInvites" : "listInvites",
          who,
          shows,
          listed(who, "users", invitePolicy.manage(a, facts)),
        );
        check(
          "rest",
          op("deleteInvite"),
          who,
          (await api("DELETE", `${path}/${theirs.id}`)).status,
          restStatus(who, "users", invitePolicy.manage(a, facts) ? "ok" : "hidden"),
        );
      }
    }
  }, 120_000);

  it("calendars: each person's own, not even an admin's to see", async () => {
    const inside = w.people.inside.api;
    const connect = async () =>
      (await inside("POST", "/v1/calendars", { kind: "ics", url: `${hookBase}/calendar-${++seq}.ics` })).body.calendar
        .id as string;
    const calendarId = await connect();
    const eventId = (await inside("GET", "/v1/calendar/events")).body.events[0].id as string;
    const facts = { workspaceId: w.workspaceId, ownerUserId: w.people.inside.userId };
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const mine = calendarPolicy.manage(actorOf(w, who), facts);
      check(
        "rest",
        "addCalendar",
        who,
        (await api("POST", "/v1/calendars", { kind: "ics", url: `${hookBase}/calendar-${who}-${++seq}.ics` })).status,
        restStatus(who, "notes", "ok"),
      );
      const list = await api("GET", "/v1/calendars");
      check(
        "rest",
        "listCalendars",
        who,
        (list.body?.calendars ?? []).some((c: { id: string }) => c.id === calendarId),
        listed(who, "notes", mine),
      );
      const events = await api("GET", "/v1/calendar/events");
      check(
        "rest",
        "listCalendarEvents",
        who,
        (events.body?.events ?? []).some((e: { id: string }) => e.id === eventId),
        listed(who, "notes", mine),
      );
      check(
        "rest",
        "syncCalendar",
        who,
        (await api("POST", `/v1/calendars/${calendarId}/sync`)).status,
        restStatus(who, "notes", mine ? "ok" : "hidden"),
      );
      const doomed = await connect();
      check(
        "rest",
        "removeCalendar",
        who,
        (await api("DELETE", `/v1/calendars/${doomed}`)).status,
        restStatus(who, "notes", mine ? "ok" : "hidden"),
      );
    }
    // Settings → Calendars and Coming up: the same rule in the web app.
    for (const who of WEB_PEOPLE) {
      const mine = calendarPolicy.manage(actorOf(w, who), facts);
      const csrf = await csrfOf(who);
      const page = await web(who, "GET", "/settings/calendars");
      check("web", "GET /settings/calendars", who, page.status === 200 && page.text.includes(calendarId), mine);
      const list = await web(who, "GET", "/notes");
      // Coming up lists the caller's next meetings: the owner's among them, nobody else's ever.
      const insideEvents = (await inside("GET", "/v1/calendar/events")).body.events.map((e: { id: string }) => e.id);
      check(
        "web",
        "GET /notes (coming up)",
        who,
        insideEvents.some((id: string) => list.text.includes(`/notes/new?event=${id}`)),
        mine,
      );
      const synced = await web(who, "POST", `/settings/calendars/${calendarId}/sync`, { csrf });
      check("web", "POST /settings/calendars/:id/sync", who, synced.status, mine ? 303 : 404);
      const doomed = await connect();
      const removed = await web(who, "POST", `/settings/calendars/${doomed}/remove`, { csrf });
      check("web", "POST /settings/calendars/:id/remove", who, removed.status, mine ? 303 : 404);
    }
  });

  it("webhooks: each maker's own registrations, and events only about notes the maker may see", async () => {
    const adminHook = `${hookBase}/admin-${++seq}`;
    await w.people.admin.api("POST", "/v1/integrations/automation/webhook", { hookUrl: adminHook });
    // A delivery of the admin's registration, to redeliver.
    await makeNote("team");
    await until("the admin's delivery", () => received.some((r) => r.path === new URL(adminHook).pathname));
    const deliveries = (await w.people.admin.api("GET", "/v1/integrations/automation/deliveries?limit=100")).body.items;
    const adminDelivery = deliveries.find((d: { hookUrl: string }) => d.hookUrl === adminHook).id;
    const facts = { workspaceId: w.workspaceId, ownerUserId: w.people.admin.userId };
    const adminHookId = (await w.people.admin.api("GET", "/v1/integrations/automation/webhook")).body.webhooks.find(
      (x: { hookUrl: string }) => x.hookUrl === adminHook,
    ).id;
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const a = actorOf(w, who);
      const mine = ownedPolicy.manage(a, facts);
      check(
        "rest",
        "registerWebhook",
        `${who} new URL`,
        (await api("POST", "/v1/integrations/automation/webhook", { hookUrl: `${hookBase}/${who}-${++seq}` })).status,
        restStatus(who, "notes", "ok"),
      );
      const again = await api("POST", "/v1/integrations/automation/webhook", { hookUrl: adminHook });
      check(
        "rest",
        "registerWebhook",
        `${who} the admin's URL`,
        again.status,
        who === "oauth" ? 401 : !SCOPES[who].has("notes") ? 403 : who === "stranger" || mine ? 200 : 409,
      );
      const list = await api("GET", "/v1/integrations/automation/webhook");
      check(
        "rest",
        "listWebhooks",
        who,
        (list.body?.webhooks ?? []).some((x: { id: string }) => x.id === adminHookId),
        listed(who, "notes", mine),
      );
      const dl = await api("GET", "/v1/integrations/automation/deliveries?limit=100");
      check(
        "rest",
        "listWebhookDeliveries",
        who,
        (dl.body?.items ?? []).some((x: { id: string }) => x.id === adminDelivery),
        listed(who, "notes", mine),
      );
      const re = (await api("POST", `/v1/integrations/automation/deliveries/${adminDelivery}/redeliver`)).status;
      const want = restStatus(who, "notes", mine ? "ok" : "hidden");
      check("rest", "redeliverWebhook", who, want === 200 ? [200, 409].includes(re) : re, want === 200 ? true : want);
      const doomed = `${hookBase}/doomed-${++seq}`;
      await w.people.admin.api("POST", "/v1/integrations/automation/webhook", { hookUrl: doomed });
      check(
        "rest",
        "removeWebhook",
        who,
        (await api("DELETE", "/v1/integrations/automation/webhook", { hookUrl: doomed })).status,
        restStatus(who, "notes", mine ? "ok" : "hidden"),
      );
    }

    // Payloads: a registration by each member; a note in the private folder reaches only the one inside it.
    const tag = ++seq;
    for (const who of ["inside", "outside"] as const)
      await w.people[who].api("POST", "/v1/integrations/automation/webhook", {
        hookUrl: `${hookBase}/payload-${who}-${tag}`,
      });
    const board = await makeNote("board");
    const diary = await makeNote("diary");
    const team = await makeNote("team");
    const got = (who: string, id: string) =>
      received.some((r) => r.path === `/payload-${who}-${tag}` && r.body.payload?.note?.id === id);
    // The team note is created last: once the outside member's receiver has it, anything earlier would have come too.
    await until(
      "the payload deliveries",
      () => got("outside", team.id) && got("inside", team.id) && got("inside", board.id),
    );
    for (const [kind, n] of [
      ["board", board],
      ["diary", diary],
      ["team", team],
    ] as const)
      for (const who of ["inside", "outside"] as const)
        check("webhook", "note.created", `${who} × ${kind}`, got(who, n.id), notePolicy.see(actorOf(w, who), n.facts));
  }, 120_000);

  it("templates and knowledge articles: each author's own, and every one for admins", async () => {
    const tpl = (
      await w.people.admin.api("POST", "/v1/templates", {
        name: "Admin's",
        sections: [{ title: "One", instructions: "Write it." }],
      })
    ).body.template;
    const facts = { workspaceId: w.workspaceId, ownerUserId: w.people.admin.userId };
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const a = actorOf(w, who);
      const owned = ownedPolicy.manage(a, facts) ? "ok" : "forbidden";
      check(
        "rest",
        "listTemplates",
        who,
        (await api("GET", "/v1/templates")).status,
        restStatus(who, "templates", "ok"),
      );
      check(
        "rest",
        "getTemplate",
        who,
        (await api("GET", `/v1/templates/${tpl.id}`)).status,
        restStatus(who, "templates", who === "stranger" ? "hidden" : "ok"),
      );
      check(
        "rest",
        "createTemplate",
        who,
        (await api("POST", "/v1/templates", { name: `Mine ${++seq}`, sections: [{ title: "A", instructions: "B" }] }))
          .status,
        restStatus(who, "templates", "ok"),
      );
      check(
        "rest",
        "updateTemplate",
        `${who} content`,
        (await api("PATCH", `/v1/templates/${tpl.id}`, { description: `by ${who}` })).status,
        restStatus(who, "templates", who === "stranger" ? "hidden" : owned),
      );
      check(
        "rest",
        "updateTemplate",
        `${who} default`,
        (await api("PATCH", `/v1/templates/${tpl.id}`, { isDefault: false })).status,
        restStatus(
          who,
          "templates",
          who === "stranger" ? "hidden" : workspacePolicy.configureAi(a) ? "ok" : "forbidden",
        ),
      );
      const doomed = (
        await w.people.admin.api("POST", "/v1/templates", {
          name: `Doomed ${++seq}`,
          sections: [{ title: "A", instructions: "B" }],
        })
      ).body.template;
      check(
        "rest",
        "deleteTemplate",
        who,
        (await api("DELETE", `/v1/templates/${doomed.id}`)).status,
        restStatus(who, "templates", who === "stranger" ? "hidden" : owned),
      );

      check(
        "rest",
        "createArticle",
        who,
        (await api("POST", "/v1/knowledge", { title: "Note", content: "Text." })).status,
        restStatus(who, "notes", "ok"),
      );
      check("rest", "listArticles", who, (await api("GET", "/v1/knowledge")).status, restStatus(who, "notes", "ok"));
      const article = (await w.people.admin.api("POST", "/v1/knowledge", { title: "Admin's", content: "Text." })).body
        .article;
      check(
        "rest",
        "deleteArticle",
        who,
        (await api("DELETE", `/v1/knowledge/${article.id}`)).status,
        restStatus(who, "notes", who === "stranger" ? "hidden" : owned),
      );
    }
  }, 120_000);

  it("asking: any holder of the notes scope asks; a thread is its asker's alone", async () => {
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const json = { accept: "application/json" };
      check(
        "rest",
        "ask",
        who,
        (await api("POST", "/v1/ask", { question: "Any budgets?" }, json)).status,
        restStatus(who, "notes", "ok"),
      );
      check(
        "rest",
        "listAskThreads",
        who,
        (await api("GET", "/v1/ask/threads")).status,
        restStatus(who, "notes", "ok"),
      );
      const theirs = (await w.people.admin.api("POST", "/v1/ask", { question: "The admin's own question?" }, json)).body
        .threadId;
      const own = who === "admin" ? "ok" : "hidden";
      check(
        "rest",
        "getAskThread",
        who,
        (await api("GET", `/v1/ask/threads/${theirs}`)).status,
        restStatus(who, "notes", own),
      );
      check(
        "rest",
        "ask",
        `${who} follow-up`,
        (await api("POST", "/v1/ask", { question: "And then?", threadId: theirs }, json)).status,
        restStatus(who, "notes", own),
      );
      if ((WEB_PEOPLE as Who[]).includes(who)) {
        check("web", "GET /ask", who, (await web(who, "GET", "/ask")).status, 200);
        check(
          "web",
          "GET /ask/threads/:id",
          `${who} the admin's`,
          (await web(who, "GET", `/ask/threads/${theirs}`)).status,
          who === "admin" ? 200 : 404,
        );
        check(
          "web",
          "POST /ask/threads/:id/delete",
          `${who} the admin's`,
          (await web(who, "POST", `/ask/threads/${theirs}/delete`, { csrf: await csrfOf(who) })).status,
          who === "admin" ? 303 : 404,
        );
      }
      check(
        "rest",
        "deleteAskThread",
        who,
        (await api("DELETE", `/v1/ask/threads/${theirs}`)).status,
        // Another's thread is not found; the admin's own went in the web app just before.
        restStatus(who, "notes", "hidden"),
      );
    }
  }, 120_000);

  it("action items: seen exactly where their note is, ticked and given to someone by whoever may edit it", async () => {
    for (const kind of Object.keys(NOTE_KINDS) as NoteKind[]) {
      const k = NOTE_KINDS[kind];
      const word = `${kind}task${++seq}x`;
      const folderIds = k.folder === "shared" ? [w.sharedFolder] : k.folder === "private" ? [w.privateFolder] : [];
      const made = await w.people[k.by].api("POST", "/v1/notes", {
        title: `${kind} tasks ${seq}`,
        visibility: k.visibility,
        folderIds,
        summary: `## Action items\n\n- [ ] Send the ${word} report (owner: Ann)\n`,
      });
      expect(made.status, made.text).toBe(200);
      const facts: NoteFacts = {
        workspaceId: w.workspaceId,
        createdBy: w.people[k.by].userId,
        visibility: k.visibility,
        folderIds,
      };
      const [item] = (await w.people[k.by].api("GET", `/v1/action-items?noteId=${made.body.note.id}`)).body.items;
      for (const who of REST_PEOPLE) {
        const a = actorOf(w, who);
        const sees = who !== "stranger" && actionItemPolicy.see(a, facts);
        const label = `${who} on ${kind}`;
        const list = await w.people[who].api("GET", "/v1/action-items?limit=100");
        check("rest", "listActionItems", `${label} status`, list.status, restStatus(who, "notes", "ok"));
        // The list shows the item, and its words, exactly to those who may read the note.
        check("rest", "listActionItems", `${label} shows it`, list.text.includes(word), listed(who, "notes", sees));
        check(
          "rest",
          "updateActionItem",
          label,
          (await w.people[who].api("PATCH", `/v1/action-items/${item.id}`, { done: who === "admin" })).status,
          restStatus(who, "notes", decide(sees, actionItemPolicy.change(a, facts))),
        );
        // MCP: the OAuth token reads as its member; a key without the notes scope is told so.
        const scoped = SCOPES[who].has("notes") || who === "oauth";
        const r = await mcpCall(who, "svc_list_action_items", { limit: 100 });
        check("mcp", "svc_list_action_items", `${label} answers`, !r.isError, scoped);
        check("mcp", "svc_list_action_items", `${label} shows it`, JSON.stringify(r).includes(word), scoped && sees);
      }
    }
  });

  it("transcript corrections and history: by whoever may edit the note, and nobody else", async () => {
    const transcripts = Array.from({ length: 3 * REST_PEOPLE.length + 3 }, (_, i) => ({
      speaker: "Speaker",
      text: `Line ${i} of the meeting.`,
      startTimestamp: `00:${String(i).padStart(2, "0")}`,
      endTimestamp: `00:${String(i).padStart(2, "0")}`,
    }));
    for (const kind of Object.keys(NOTE_KINDS) as NoteKind[]) {
      const k = NOTE_KINDS[kind];
      const owner = w.people[k.by].api;
      const folderIds = k.folder === "shared" ? [w.sharedFolder] : k.folder === "private" ? [w.privateFolder] : [];
      const made = await owner("POST", "/v1/notes", {
        title: `${kind} transcript ${++seq}`,
        visibility: k.visibility,
        folderIds,
        transcripts,
        // Written already: the note is not being processed, so its lines may be corrected at once.
        summary: "A meeting.",
        enhancedNote: "## Notes\n- a meeting",
      });
      expect(made.status, made.text).toBe(200);
      const id = made.body.note.id as string;
      const facts: NoteFacts = {
        workspaceId: w.workspaceId,
        createdBy: w.people[k.by].userId,
        visibility: k.visibility,
        folderIds,
      };
      // A title its maker changed: a version for each person's restore to take.
      expect((await owner("PATCH", `/v1/notes/${id}`, { title: `${kind} transcript, renamed` })).status).toBe(200);
      const titled = (await owner("GET", `/v1/notes/${id}/history`)).body.items.find(
        (v: { part: string }) => v.part === "title",
      );
      // Each person works on lines of their own, read afresh (a split or a delete moves the rest).
      let n = 0;
      const line = async () => {
        const all = (await owner("GET", `/v1/notes/${id}`)).body.note.transcripts;
        return all[n++ % all.length];
      };
      for (const who of REST_PEOPLE) {
        const a = actorOf(w, who);
        const expected = restStatus(who, "notes", decide(notePolicy.see(a, facts), notePolicy.edit(a, facts)));
        const api = w.people[who].api;
        const edited = await line();
        const path = `/v1/notes/${id}/transcript/${edited.id}`;
        const label = `${who} on ${kind}`;
        check(
          "rest",
          "updateTranscriptLine",
          label,
          (await api("PATCH", path, { version: edited.version, text: "Fixed." })).status,
          expected,
        );
        const cut = await line();
        check(
          "rest",
          "splitTranscriptLine",
          label,
          (await api("POST", `/v1/notes/${id}/transcript/${cut.id}/split`, { version: cut.version, atWord: 1 })).status,
          expected,
        );
        const gone = await line();
        check(
          "rest",
          "deleteTranscriptLine",
          label,
          (await api("DELETE", `/v1/notes/${id}/transcript/${gone.id}?version=${gone.version}`)).status,
          expected,
        );
        check("rest", "listNoteHistory", label, (await api("GET", `/v1/notes/${id}/history`)).status, expected);
        check(
          "rest",
          "restoreNoteVersion",
          label,
          (await api("POST", `/v1/notes/${id}/history/${titled.id}/restore`)).status,
          expected,
        );
      }
    }
  });

  it("credentials and uploads: what any holder of the scope may do", async () => {
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      // One's own mail settings: any valid key, each person's own.
      check(
        "rest",
        "getNotifications",
        who,
        (await api("GET", "/v1/me/notifications")).status,
        restStatus(who, null, "ok"),
      );
      const turned = await api("PATCH", "/v1/me/notifications", { noteReady: who === "inside" });
      check("rest", "updateNotifications", who, turned.status, restStatus(who, null, "ok"));
      if (who === "outside")
        check(
          "rest",
          "updateNotifications",
          "outside leaves inside's setting alone",
          (await w.people.inside.api("GET", "/v1/me/notifications")).body.notifications.noteReady,
          true,
        );
      const url = await api("POST", "/v1/notes/from-audio/generate-upload-url", { fileExtension: "wav", duration: 5 });
      check("rest", "generateUploadUrl", who, url.status, restStatus(who, "notes", "ok"));
      if (url.status === 200) {
        // The presigned URL is the credential: no key is asked for; a forged signature is refused.
        const signed = new URL(url.body.presignedUrl as string);
        const put = (u: URL, type: string) =>
          fetch(u, { method: "PUT", headers: { "Content-Type": type }, body: "not audio" }).then((r) => r.status);
        check("rest", "uploadRecording", `${who}'s URL, no key, wrong type`, await put(signed, "text/plain"), 415);
        const forged = new URL(signed);
        forged.searchParams.set("sig", "A".repeat((signed.searchParams.get("sig") ?? "x").length));
        check(
          "rest",
          "uploadRecording",
          `${who}'s URL, forged signature`,
          await put(forged, url.body.contentType),
          403,
        );
      }
      // A made-up audio reference is refused for what it is, never for who asks.
      const made = await api("POST", "/v1/notes/from-audio", { audioUrl: "upl_madeup", folderId: w.privateFolder });
      check(
        "rest",
        "createNoteFromAudio",
        who,
        made.status === 401 || made.status === 403 ? made.status : "refused",
        who === "oauth" ? 401 : !SCOPES[who].has("notes") ? 403 : "refused",
      );
    }
    // One's own key, revoked by itself: the next request with it is 401.
    const { key } = await (
      await import("../helpers/server.js")
    ).admin(server.dataDir, [
      "keys",
      "create",
      "--name",
      "throwaway",
      "--scopes",
      "notes",
      "--workspace",
      w.workspaceId,
      "--user",
      w.people.outside.userId,
    ]);
    const own = client(server.url, key);
    check("rest", "revokeOwnKey", "outside", (await own("DELETE", "/v1/me/key")).status, 200);
    check("rest", "revokeOwnKey", "outside, after", (await own("GET", "/v1/me")).status, 401);
  });

  it("live recordings: the person recording sends the audio and stops it; whoever sees the note sees it grow", async () => {
    const piece = (api: (typeof w.people)["admin"]["api"], noteId: string) =>
      api("PUT", `/v1/recordings/${noteId}/pieces/0`, "OggS" + "x".repeat(60), { "content-type": "audio/ogg" });
    for (const who of REST_PEOPLE) {
      const api = w.people[who].api;
      const own = await api("POST", "/v1/recordings", { format: "ogg" });
      check("rest", "startRecording", who, own.status, restStatus(who, "notes", "ok"));
      if (own.status === 200) await api("POST", `/v1/recordings/${own.body.note.id}/stop`);
      // The inside member's recordings: one filed in the private folder, one for the workspace.
      for (const folderId of [w.privateFolder, undefined]) {
        const started = await w.people.inside.api("POST", "/v1/recordings", { format: "ogg", folderId });
        const note = started.body.note;
        const facts: NoteFacts = {
          workspaceId: w.workspaceId,
          createdBy: w.people.inside.userId,
          visibility: note.visibility,
          folderIds: folderId ? [folderId] : [],
        };
        const actor = actorOf(w, who);
        const sees = notePolicy.see(actor, facts);
        const label = `${who} on a recording ${folderId ? "in the private folder" : "for the workspace"}`;
        const records = decide(sees, notePolicy.record(actor, facts));
        check(
          "rest",
          "getRecording",
          label,
          (await api("GET", `/v1/recordings/${note.id}`)).status,
          restStatus(who, "notes", decide(sees, true)),
        );
        check(
          "rest",
          "addRecordingPiece",
          label,
          (await piece(api, note.id)).status,
          restStatus(who, "notes", records),
        );
        check(
          "rest",
          "stopRecording",
          label,
          (await api("POST", `/v1/recordings/${note.id}/stop`)).status,
          restStatus(who, "notes", records),
        );
        // The web app's recorder: the session (and its CSRF token) in place of a key.
        if (WEB_PEOPLE.includes(who)) {
          // A recording of the same kind, still under way (the REST checks above may have stopped the first).
          const fresh = (await w.people.inside.api("POST", "/v1/recordings", { format: "ogg", folderId })).body.note;
          const csrf = await csrfOf(who);
          const webJson = (method: string, path: string, body?: string) =>
            fetch(server.url + path, {
              method,
              headers: { cookie: w.people[who].cookie!, "x-csrf-token": csrf, accept: "application/json" },
              body,
            }).then((r) => r.status);
          const webStatus = (d: Decision) => STATUS[d];
          check("web", "GET /notes/:id/live", label, await webJson("GET", `/notes/${fresh.id}/live`), sees ? 200 : 404);
          check(
            "web",
            "POST /notes/:id/record/details",
            label,
            await webJson("POST", `/notes/${fresh.id}/record/details`, JSON.stringify({ title: `Named by ${who}` })),
            webStatus(decide(sees, notePolicy.edit(actor, facts))),
          );
          // The notepad beside the live transcript: saved on the notes' version as they stand.
          const notesNow = (await w.people.inside.api("GET", `/v1/notes/${fresh.id}`)).body.note.userWrittenNote;
          check(
            "web",
            "POST /notes/:id/own-notes",
            label,
            await webJson(
              "POST",
              `/notes/${fresh.id}/own-notes`,
              JSON.stringify({ text: `${notesNow}\n- by ${who}`, base: textVersion(notesNow) }),
            ),
            webStatus(decide(sees, notePolicy.edit(actor, facts))),
          );
          check(
            "web",
            "PUT /notes/:id/pieces/:seq",
            label,
            await webJson("PUT", `/notes/${fresh.id}/pieces/0`, "OggS" + "x".repeat(60)),
            webStatus(records),
          );
          check(
            "web",
            "POST /notes/:id/record/stop",
            label,
            await webJson("POST", `/notes/${fresh.id}/record/stop`),
            webStatus(records),
          );
          await w.people.inside.api("POST", `/v1/recordings/${fresh.id}/stop`);
        }
        await w.people.inside.api("POST", `/v1/recordings/${note.id}/stop`);
      }
      if (WEB_PEOPLE.includes(who)) {
        const started = await fetch(`${server.url}/notes/record/start`, {
          method: "POST",
          headers: {
            cookie: w.people[who].cookie!,
            "x-csrf-token": await csrfOf(who),
            accept: "application/json",
            "content-type": "application/json",
          },
          body: JSON.stringify({ format: "webm", folderId: w.privateFolder }),
        });
        // Filing a recording in a private folder is for its members.
        const inFolder = folderPolicy.see(actorOf(w, who), {
          id: w.privateFolder,
          workspaceId: w.workspaceId,
          ownerUserId: w.people.inside.userId,
          isPrivate: true,
        });
        check(
          "web",
          "POST /notes/record/start",
          `${who} into the private folder`,
          started.status,
          inFolder ? 200 : 400,
        );
        if (started.ok)
          await w.people[who].api(
            "POST",
            `/v1/recordings/${((await started.json()) as { noteId: string }).noteId}/stop`,
          );
      }
    }
  }, 120_000);

  it("every REST operation and every MCP tool is in the matrix, and no case disagrees with the policy", async () => {
    const spec = (await client(server.url)("GET", "/v1/openapi.json")).body;
    const operations = Object.values(spec.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((methods) => Object.values(methods).map((m) => m.operationId))
      .filter((id): id is string => Boolean(id));
    expect(operations.length).toBeGreaterThan(40);
    expect(
      operations.filter((op) => !covered.rest.has(op)),
      "REST operations missing from the access matrix",
    ).toEqual([]);
    const tools = (await w.mcp.admin.listTools()).tools.map((t) => t.name);
    expect(
      tools.filter((t) => !covered.mcp.has(t)),
      "MCP tools missing from the access matrix",
    ).toEqual([]);
    expect(failures).toEqual([]);
    expect(cases).toBeGreaterThan(500);
    console.log(
      `access matrix: ${cases} cases over ${covered.rest.size} REST operations, ${covered.mcp.size} MCP tools, ${covered.web.size} web routes, ${covered.cli.size} CLI commands, ${covered.webhook.size} webhook event`,
    );
  });
});
