// The web app's forms follow post/redirect/get: a form's result (a new key, an invite
// link, "revoked") is shown once on the page the browser is sent to, so reloading that
// page shows it no more and submits nothing again. Invites can be revoked, and their
// link is shown once, when made.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Client } from "../helpers/http.js";
import { admin, startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { PASSWORD, webSession } from "../helpers/world.js";
import { inFormWords } from "../../src/web/routes/settings/kit.js";

let server: TestServer;
let api: Client;
let browser: ReturnType<typeof browserFor>;

/** A browser of one person: it keeps the cookies it is given, follows no redirect by itself. */
function browserFor(url: string, session: string) {
  const jar = new Map<string, string>([session.split("=") as [string, string]]);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const [k, v] = pair.split("=");
      if (attrs.some((a) => /max-age=0/i.test(a.trim())) || v === "") jar.delete(k.trim());
      else jar.set(k.trim(), v);
    }
    return res;
  };
  const get = async (path: string) => {
    const res = keep(await fetch(url + path, { headers: { cookie: cookie() }, redirect: "manual" }));
    return { status: res.status, html: await res.text() };
  };
  let csrf = "";
  const post = async (path: string, fields: Record<string, string>) => {
    if (!csrf) csrf = /name="csrf" value="([^"]+)"/.exec((await get("/settings/account")).html)![1];
    return keep(
      await fetch(url + path, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf, ...fields }),
      }),
    );
  };
  return { get, post, jar };
}

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
  api = client(server.url, server.key);
  await admin(server.dataDir, ["users", "set-password", "--email", "admin@notula.local"], PASSWORD);
  browser = browserFor(server.url, await webSession(server.url, "admin@notula.local"));
});
afterAll(() => server?.stop());

describe("post/redirect/get", () => {
  it("a new API key is shown once after the redirect; reloading shows it no more and makes no second key", async () => {
    const count = async () => Number((await storeQuery(server.dataDir, "SELECT count(*) AS n FROM api_keys"))[0].n);
    const before = await count();
    const res = await browser.post("/settings/keys", { name: "laptop", scopes: "notes" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/settings/keys");
    // Nothing secret rides in the cookie or the address: only a random handle.
    expect(browser.jar.get("notula_flash")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const shown = await browser.get("/settings/keys");
    const key = /(ntl_[A-Za-z0-9_-]+)/.exec(shown.html)?.[1];
    expect(key).toBeTruthy();
    expect((await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const reloaded = await browser.get("/settings/keys");
    expect(reloaded.html).not.toContain(key!);
    expect(reloaded.html).toContain("laptop");
    expect(await count()).toBe(before + 1);
  });

  it("revoking a key says so once, and asks first in the page", async () => {
    const page = await browser.get("/settings/keys");
    const action = /action="(\/settings\/keys\/[^"]+\/revoke)" data-confirm="Revoke the key laptop\?/.exec(
      page.html,
    )?.[1];
    expect(action).toBeTruthy();
    const res = await browser.post(action!, {});
    expect(res.status).toBe(303);
    expect((await browser.get("/settings/keys")).html).toContain("The key is revoked.");
    expect((await browser.get("/settings/keys")).html).not.toContain("The key is revoked.");
  });

  it("an invite link is shown once, never in the pending list, and the invite can be revoked", async () => {
    const res = await browser.post("/settings/members/invite", { email: "", role: "member" });
    expect(res.status).toBe(303);
    const shown = await browser.get("/settings/members");
    const link = /(https?:\/\/[^"<\s]+\/invite\/[A-Za-z0-9_-]+)/.exec(shown.html)?.[1];
    expect(link).toBeTruthy();
    expect(shown.html).toContain("shown this once");
    const later = await browser.get("/settings/members");
    expect(later.html).not.toContain(link!);
    expect(later.html).toContain("anyone with the link");
    expect((await fetch(link!, { redirect: "manual" })).status).toBe(200);
    const revoke = /action="(\/settings\/members\/invites\/[^"]+\/revoke)"/.exec(later.html)![1];
    const revoked = await browser.post(revoke, {});
    expect(revoked.status).toBe(303);
    const after = await browser.get("/settings/members");
    expect(after.html).toContain("The invite is revoked");
    expect((await fetch(link!, { redirect: "manual" })).status).toBe(404);
  });

  it("a note offers only what applies to it, and deleting one says so once", async () => {
    const text = (await api("POST", "/v1/notes", { title: "Written only", userWrittenNote: "Ideas for the launch." }))
      .body.note.id;
    const said = (
      await api("POST", "/v1/notes", {
        title: "Said aloud",
        transcripts: [{ speaker: "Ana", text: "We launch in May.", startTimestamp: "00:00", endTimestamp: "00:04" }],
      })
    ).body.note.id;
    const written = (await browser.get(`/notes/${text}`)).html;
    // No recording and no transcript: nothing to process again, and the offline writer needs speech.
    expect(written).not.toContain("Process again");
    expect(written).not.toContain(">Enhance<");
    const spoken = (await browser.get(`/notes/${said}`)).html;
    expect(spoken).toContain("Process again");
    expect(spoken).toContain(">Enhance<");

    const res = await browser.post(`/notes/${text}/delete`, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/notes");
    expect((await browser.get("/notes")).html).toContain("“Written only” is deleted.");
    expect((await browser.get("/notes")).html).not.toContain("is deleted.");
  });

  it("a folder's page lists its members; its owner or an admin adds people or a whole group and takes them out", async () => {
    const ws = (await api("GET", "/v1/me")).body.workspace.id;
    const made = await admin(
      server.dataDir,
      ["users", "create", "--workspace", ws, "--email", "fin@example.com", "--name", "Fin", "--password-stdin"],
      PASSWORD,
    );
    const group = (await api("POST", "/v1/workspace/groups", { name: "Finance team" })).body.userGroup;
    const memberId = (await api("GET", "/v1/workspace/members?search=fin@example.com")).body.items[0].id;
    expect((await api("PATCH", `/v1/workspace/members/${memberId}`, { groupIds: [group.id] })).status).toBe(200);
    const me = (await api("GET", "/v1/me")).body.user.id;
    const folder = (await api("POST", "/v1/folders", { name: "Board", ownerUserId: me, isPrivate: true })).body.folder;

    expect((await browser.get("/settings/folders")).html).toContain(`href="/settings/folders/${folder.id}"`);
    const page = (await browser.get(`/settings/folders/${folder.id}`)).html;
    expect(page).toContain("Private: only its members see it");
    expect(page).toContain("Add everyone in a group");
    const added = await browser.post(`/settings/folders/${folder.id}/groups`, { groupId: group.id });
    expect(added.status).toBe(303);
    const withFin = (await browser.get(`/settings/folders/${folder.id}`)).html;
    expect(withFin).toContain("1 person added.");
    expect(withFin).toMatch(/<td[^>]*>fin@example\.com<\/td>/);
    expect((await api("GET", `/v1/folders/${folder.id}/members`)).body.members.map((m: any) => m.userId)).toContain(
      made.user.id,
    );

    // Fin sees the folder now, but does not choose its members.
    const fin = browserFor(server.url, await webSession(server.url, "fin@example.com"));
    const seen = (await fin.get(`/settings/folders/${folder.id}`)).html;
    expect(seen).toContain("owner or an admin chooses its members.");
    expect(seen).not.toContain("Add everyone in a group");
    expect((await fin.post(`/settings/folders/${folder.id}/members/${me}/remove`, {})).status).toBe(403);

    const removed = await browser.post(`/settings/folders/${folder.id}/members/${made.user.id}/remove`, {});
    expect(removed.status).toBe(303);
    const after = (await browser.get(`/settings/folders/${folder.id}`)).html;
    expect(after).not.toMatch(/<td[^>]*>fin@example\.com<\/td>/);
    expect(after).toContain("Fin (fin@example.com)"); // offered to add again
    // Out of the private folder, it does not exist for Fin.
    expect((await fin.get(`/settings/folders/${folder.id}`)).status).toBe(404);

    // Changing its privacy or its name says what changed.
    expect((await browser.post(`/settings/folders/${folder.id}/privacy`, { private: "0" })).status).toBe(303);
    expect((await browser.get("/settings/folders")).html).toContain(
      "Board is no longer private: its notes follow their own visibility again.",
    );
    expect((await api("GET", `/v1/folders/${folder.id}`)).body.folder.isPrivate).toBe(false);
    await browser.post(`/settings/folders/${folder.id}/privacy`, { private: "1" });
    expect((await browser.get("/settings/folders")).html).toContain(
      "Board is private now: only its members see its notes.",
    );
    await browser.post(`/settings/folders/${folder.id}`, { name: "Board of directors" });
    expect((await browser.get("/settings/folders")).html).toContain("Renamed to Board of directors.");
  });

  it("a flash belongs to whoever made it: another person's handle shows nothing", async () => {
    await browser.post("/settings/folders", { name: "Board" });
    const handle = browser.jar.get("notula_flash")!;
    await admin(
      server.dataDir,
      [
        "users",
        "create",
        "--workspace",
        (await api("GET", "/v1/me")).body.workspace.id,
        "--email",
        "other@example.com",
        "--name",
        "Other",
        "--password-stdin",
      ],
      PASSWORD,
    );
    const other = browserFor(server.url, await webSession(server.url, "other@example.com"));
    other.jar.set("notula_flash", handle);
    expect((await other.get("/settings/folders")).html).not.toContain("The folder Board is made.");
  });
});

describe("names and terms for the speech engine", () => {
  it("offers the names a correction wrote on Settings → Speech-to-text, where an admin adds them or sets them aside", async () => {
    const made = await api("POST", "/v1/notes", {
      title: "Platform sync",
      transcripts: [
        {
          speaker: "Ana",
          text: "We will deploy the cooper nettys cluster on Tuesday.",
          startTimestamp: "00:00",
          endTimestamp: "00:05",
        },
        { speaker: "Ben", text: "And cue drant stores the vectors.", startTimestamp: "00:05", endTimestamp: "00:09" },
      ],
    });
    const lines = (await api("GET", `/v1/notes/${made.body.note.id}`)).body.note.transcripts;
    const fix = async (i: number, text: string) =>
      (await api("PATCH", `/v1/notes/${made.body.note.id}/transcript/${lines[i].id}`, { version: 0, text })).body;
    expect((await fix(0, "We will deploy the Kubernetes cluster on Tuesday.")).vocabularyOffered).toEqual([
      "Kubernetes",
    ]);
    expect((await fix(1, "And Qdrant stores the vectors.")).vocabularyOffered).toEqual(["Qdrant"]);
    const page = (await browser.get("/settings/speech")).html;
    expect(page).toContain('value="Kubernetes"');
    expect(page).toContain('value="Qdrant"');
    const taken = await browser.post("/settings/speech/vocabulary/offers", { take: "Kubernetes", do: "take" });
    expect(taken.status).toBe(303);
    const config = (await api("GET", "/v1/ai-config")).body.aiConfig.transcription;
    expect(config.vocabulary).toEqual(["Kubernetes"]);
    expect(config.vocabularyOffered).toEqual([]);
    // Typed on the page, one per line.
    await browser.post("/settings/speech/vocabulary", { vocabulary: "Kubernetes\nSiobhan Nguyen\n\nKubernetes" });
    expect((await api("GET", "/v1/ai-config")).body.aiConfig.transcription.vocabulary).toEqual([
      "Kubernetes",
      "Siobhan Nguyen",
    ]);
  });
});

describe("a note's history on its page", () => {
  it("lists who wrote what, and puts a version back from its button", async () => {
    const made = await api("POST", "/v1/notes", {
      title: "Budget",
      transcripts: [{ speaker: "Ana", text: "The budget is set.", startTimestamp: "00:00", endTimestamp: "00:03" }],
      summary: "The budget is set.",
      enhancedNote: "## Notes\n- set",
    });
    const id = made.body.note.id;
    expect((await api("PATCH", `/v1/notes/${id}`, { summary: "The budget is set at 200k." })).status).toBe(200);
    const page = (await browser.get(`/notes/${id}`)).html;
    expect(page).toContain('id="history"');
    expect(page).toContain("Restore this version");
    const versions = (await api("GET", `/v1/notes/${id}/history`)).body.items;
    const first = versions.find((v: { content: string }) => v.content === "The budget is set.");
    const res = await browser.post(`/notes/${id}/history/${first.id}/restore`, {});
    expect(res.status).toBe(303);
    expect((await api("GET", `/v1/notes/${id}`)).body.note.summary).toBe("The budget is set.");
    // The share page of the same note shows none of it.
    await api("PATCH", `/v1/notes/${id}`, { visibility: "public" });
    const share = (await api("GET", `/v1/notes/${id}`)).body.note.shareUrl as string;
    expect(share).toMatch(/^http/);
    const shared = await (await fetch(share)).text();
    expect(shared).toContain("The budget is set.");
    expect(shared).not.toContain('id="history"');
    expect(shared).not.toContain("Restore this version");
  });
});

describe("a refusal in the form's words", () => {
  it("spells out a field the form does not label, and leaves other messages as they are", () => {
    expect(inFormWords("hookUrl: not allowed.")).toBe("Hook URL: not allowed.");
    expect(inFormWords("smtp.host: not a host name.")).toBe("Host: not a host name.");
    expect(inFormWords("url: bad.", { url: "Address" })).toBe("Address: bad.");
    expect(inFormWords("Only an admin can do that.")).toBe("Only an admin can do that.");
  });

  it("names the field by its label, never by the API's name, and keeps what was typed but a password", async () => {
    const calendar = await browser.post("/settings/calendars", {
      kind: "caldav",
      url: "http://127.0.0.1:5232/ana/work/",
      username: "ana",
      password: "hunter2 typed once",
    });
    expect(calendar.status).toBe(400);
    const page = await calendar.text();
    expect(page).toContain("Address: 127.0.0.1 is a private or loopback address");
    expect(page).not.toContain("url: 127.0.0.1");
    expect(page).toMatch(/name="url" value="http:\/\/127\.0\.0\.1:5232\/ana\/work\/"/);
    expect(page).toMatch(/name="username" value="ana"/);
    expect(page).toMatch(/value="caldav" checked/);
    expect(page).not.toContain("hunter2");

    const hook = await browser.post("/settings/webhooks", { hookUrl: "http://127.0.0.1:9/hook" });
    expect(hook.status).toBe(400);
    const hookPage = await hook.text();
    expect(hookPage).toContain("URL: 127.0.0.1 is a private or loopback address");
    expect(hookPage).not.toContain("hookUrl:");
    expect(hookPage).toContain('value="http://127.0.0.1:9/hook"');
  });
});

describe("tables", () => {
  it("head every column, the actions' too, and give each row as many cells as headers", async () => {
    expect((await api("POST", "/v1/invites", { isUrlInvite: true, role: "member" })).status).toBe(200);
    const html = (await browser.get("/settings/members")).html;
    const table = /<h2>Pending invites<\/h2>[\s\S]*?<table>([\s\S]*?)<\/table>/.exec(html)![1];
    const heads = [...table.matchAll(/<th scope="col">([\s\S]*?)<\/th>/g)].map((m) =>
      m[1].replace(/<[^>]+>/g, "").trim(),
    );
    expect(heads).toEqual(["For", "Role", "Expires", "Actions"]);
    const row = /<tbody>\s*<tr>([\s\S]*?)<\/tr>/.exec(table)![1];
    expect(row.match(/<td[\s>]/g)).toHaveLength(heads.length);
  });
});
