// The list endpoint over a 250-note workspace: every filter against an expected set
// computed here from what was created, and pagination walked to the end under every sort.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client, type Reply } from "../helpers/http.js";
import { admin, startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let otherApi: Client;
let adminUserId: string;
let otherUserId: string;
let folders: { id: string }[] = [];

interface Seeded {
  id: string;
  title: string;
  createdAt: number;
  kind: string;
  status: string;
  createdBy: string;
  folderIds: string[];
  emails: string[];
}
const seeded: Seeded[] = [];
const KINDS = ["online", "in-person", "podcast"];
const WORDS = ["Budget", "Roadmap", "Hiring", "Retro", "Standup", "Lisbon offsite"];

beforeAll(async () => {
  // Notes with a transcript are summarized in the background; an unreachable LLM and a
  // single attempt make that end in recorded-not-summarized, a second status to filter by.
  server = await startServer({
    args: ["--no-rate-limit"],
    env: { NOTULA_LLM_URL: "http://127.0.0.1:9/v1", NOTULA_PIPELINE_MAX_ATTEMPTS: "1" },
  });
  api = client(server.url, server.key);
  const me = (await api("GET", "/v1/me")).body;
  adminUserId = me.user.id;
  const other = await admin(server.dataDir, [
    "users",
    "create",
    "--workspace",
    me.workspace.id,
    "--email",
    "b@example.com",
    "--name",
    "B",
  ]);
  otherUserId = other.user.id;
  otherApi = client(
    server.url,
    (
      await admin(server.dataDir, [
        "keys",
        "create",
        "--name",
        "b",
        "--workspace",
        me.workspace.id,
        "--user",
        otherUserId,
      ])
    ).key,
  );
  for (const name of ["F0", "F1", "F2"])
    folders.push((await api("POST", "/v1/folders", { name, ownerUserId: adminUserId })).body.folder);

  const base = Date.UTC(2026, 0, 1);
  const pending: Promise<void>[] = [];
  for (let i = 0; i < 250; i++) {
    // Every 10th pair shares a createdAt, and titles repeat, to exercise the tie-breaks.
    const createdAt = base + (i - (i % 10 === 1 ? 1 : 0)) * 3600_000;
    const kind = KINDS[i % 3];
    const withTranscript = i % 4 === 0;
    const folderIds = i % 5 === 0 ? [folders[0].id] : i % 7 === 0 ? [folders[1].id, folders[2].id] : [];
    const emails = i % 6 === 0 ? ["Carol@Example.com"] : i % 9 === 0 ? ["dan@example.com", "carol@example.com"] : [];
    const title = `${WORDS[i % WORDS.length]} ${Math.floor(i / 12)}`;
    const useOther = i % 8 === 3;
    const caller = useOther ? otherApi : api;
    pending.push(
      caller("POST", "/v1/notes", {
        title,
        kind,
        createdAt: new Date(createdAt).toISOString(),
        folderIds,
        participants: emails.map((email) => ({ name: email.split("@")[0], email })),
        ...(withTranscript ? { transcripts: [{ text: "x", startTimestamp: "00:00", endTimestamp: "00:01" }] } : {}),
      }).then((r) => {
        expect(r.status).toBe(200);
        seeded.push({
          id: r.body.note.id,
          title,
          createdAt,
          kind,
          status: withTranscript ? "recorded-not-summarized" : "completed",
          createdBy: useOther ? otherUserId : adminUserId,
          folderIds,
          emails: emails.map((e) => e.toLowerCase()),
        });
      }),
    );
    if (pending.length >= 8) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  // Sorting by updatedAt walks a moving target while processing runs: wait for it to end.
  for (let i = 0; i < 300; i++) {
    const busy = await api("GET", "/v1/notes?status=summarizing&limit=1");
    if (busy.body.items.length === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);
afterAll(() => server?.stop());

async function walk(query: string, limit = 37) {
  const ids: string[] = [];
  let offset: number | null = 0;
  let pages = 0;
  while (offset !== null) {
    const r: Reply = await api("GET", `/v1/notes?limit=${limit}&offset=${offset}${query ? "&" + query : ""}`);
    expect(r.status, r.text).toBe(200);
    const { items, pagination }: { items: { id: string }[]; pagination: any } = r.body;
    expect(pagination.limit).toBe(limit);
    expect(pagination.isLast).toBe(pagination.nextOffset === null);
    if (!pagination.isLast) expect(items).toHaveLength(limit);
    ids.push(...items.map((n: { id: string }) => n.id));
    offset = pagination.nextOffset;
    if (++pages > 100) throw new Error("pagination does not end");
  }
  return ids;
}

const ids = (xs: Seeded[]) => xs.map((s) => s.id).sort();

describe("GET /v1/notes over 250 notes", () => {
  const sorts = [
    ["createdAt", (s: Seeded) => s.createdAt],
    ["updatedAt", null],
    ["title", (s: Seeded) => s.title.toLowerCase()],
  ] as const;
  for (const [sortBy, key] of sorts) {
    for (const order of ["asc", "desc"] as const) {
      it(`walks every page with sortBy=${sortBy}&sortOrder=${order}: no gaps, no repeats, in order`, async () => {
        const walked = await walk(`sortBy=${sortBy}&sortOrder=${order}`);
        expect(walked).toHaveLength(250);
        expect(new Set(walked).size).toBe(250);
        expect([...walked].sort()).toEqual(ids(seeded));
        if (key) {
          const byId = new Map(seeded.map((s) => [s.id, key(s)]));
          const values = walked.map((id) => byId.get(id)!);
          const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(values).toEqual(order === "asc" ? sorted : sorted.reverse());
        }
      });
    }
  }

  it("the last page ends exactly: limit 50 gives 5 full pages and nextOffset null", async () => {
    const r = await api("GET", "/v1/notes?limit=50&offset=200");
    expect(r.body.items).toHaveLength(50);
    expect(r.body.pagination).toEqual({ limit: 50, nextOffset: null, isLast: true });
    const beyond = await api("GET", "/v1/notes?limit=50&offset=1000");
    expect(beyond.body).toEqual({ items: [], pagination: { limit: 50, nextOffset: null, isLast: true } });
  });

  it("limit=100 returns 100", async () => {
    const r = await api("GET", "/v1/notes?limit=100");
    expect(r.body.items).toHaveLength(100);
    expect(r.body.pagination.nextOffset).toBe(100);
  });

  it.each([
    ["status=recorded-not-summarized", (s: Seeded) => s.status === "recorded-not-summarized"],
    ["status=completed", (s: Seeded) => s.status === "completed"],
    ["status=idle", () => false],
    ["kind=podcast", (s: Seeded) => s.kind === "podcast"],
    // Search matches words of the title by prefix, ignoring case.
    ["search=budget", (s: Seeded) => s.title.toLowerCase().includes("budget")],
    ["search=BUD", (s: Seeded) => s.title.startsWith("Budget")],
    ["search=LISBON%20OFF", (s: Seeded) => s.title.includes("Lisbon off")],
    ["search=offsite%20lisbon", (s: Seeded) => s.title.includes("Lisbon off")],
    ["search=1", (s: Seeded) => s.title.split(" ").some((w) => w.startsWith("1"))],
    ["search=hiring%201", (s: Seeded) => s.title.startsWith("Hiring 1")],
    ["search=udget", () => false],
    ["search=%25", () => false],
    ["search=%22", () => false],
    ["search=%22budget%22%20OR%20x*", () => false],
    ["participantEmail=carol@example.com", (s: Seeded) => s.emails.includes("carol@example.com")],
    ["participantEmail=DAN@example.com", (s: Seeded) => s.emails.includes("dan@example.com")],
    ["fromDate=2026-01-05T00:00:00Z", (s: Seeded) => s.createdAt >= Date.UTC(2026, 0, 5)],
    ["toDate=2026-01-03", (s: Seeded) => s.createdAt < Date.UTC(2026, 0, 3)],
    [
      "fromDate=2026-01-02&toDate=2026-01-04",
      (s: Seeded) => s.createdAt >= Date.UTC(2026, 0, 2) && s.createdAt < Date.UTC(2026, 0, 4),
    ],
    ["folderIds=F0", (s: Seeded) => s.folderIds.includes(folders[0].id)],
    ["folderIds=F0,F2", (s: Seeded) => s.folderIds.includes(folders[0].id) || s.folderIds.includes(folders[2].id)],
    ["tagIds=F1", (s: Seeded) => s.folderIds.includes(folders[1].id)],
    ["createdBy=OTHER", (s: Seeded) => s.createdBy === otherUserId],
    [
      "kind=online&folderIds=F0&status=completed",
      (s: Seeded) => s.kind === "online" && s.folderIds.includes(folders[0].id) && s.status === "completed",
    ],
  ])("filter %s", async (query, predicate) => {
    const q = query.replace(/F(\d)/g, (_, n) => folders[Number(n)].id).replace("OTHER", otherUserId);
    const expected = ids(seeded.filter(predicate as (s: Seeded) => boolean));
    const walked = await walk(q, 100);
    expect(walked.sort()).toEqual(expected);
  });
});
