// Mail, through a real SMTP server: an emailed invite arrives (text and HTML, links to
// the public URL) and is joined through its link; "Forgot password?" mails a link that
// sets a new password and answers alike for an unknown address; a mail waits out an
// SMTP server that is down and arrives once; a refused recipient does not hold up the
// next mail; a line break in a name never reaches a header. Without SMTP nothing breaks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { client, type Client } from "../helpers/http.js";
import { startSmtp, type SmtpSink } from "../helpers/smtp.js";
import { until } from "../helpers/until.js";
import { formSession } from "../helpers/form-session.js";

let server: TestServer;
let smtp: SmtpSink;
let api: Client;

const mailsTo = (address: string) => smtp.received.filter((r) => r.envelope.to.includes(address));
const linkIn = (text: string, path: string) => new RegExp(`https?://\\S+${path}\\S+`).exec(text)?.[0];

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    args: ["--no-rate-limit"],
    env: {
      NOTULA_SMTP_URL: smtp.url,
      NOTULA_MAIL_FROM: "notula <notes@acme.example>",
      NOTULA_MAIL_RETRY_BASE_MS: "300",
    },
  });
  api = client(server.url, server.key);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("mail through SMTP", () => {
  it("sends an emailed invite, in text and HTML, whose link joins the workspace", async () => {
    const made = await api("POST", "/v1/invites", { email: "mira@example.com", isUrlInvite: false, role: "member" });
    expect(made.status).toBe(200);
    const got = await until("the invite mail", () => mailsTo("mira@example.com")[0]);
    expect(got.mail.from?.value[0]).toMatchObject({ name: "notula", address: "notes@acme.example" });
    expect(got.mail.subject).toMatch(/invited you to .* on notula/);
    expect(got.mail.html).toBeTruthy();
    const link = linkIn(got.mail.text ?? "", "/invite/")!;
    expect(link.startsWith(server.url)).toBe(true);
    expect(got.mail.html).toContain(link);

    const browser = formSession(server.url);
    const joined = await browser.submit(new URL(link).pathname, {
      name: "Mira",
      email: "mira@example.com",
      password: "mira's long password",
      confirm: "mira's long password",
    });
    expect(joined.status).toBe(303);
    const pending = (await api("GET", "/v1/invites")).body.items;
    expect(pending.some((i: { email: string }) => i.email === "mira@example.com")).toBe(false);
  });

  it("mails a password reset link that sets a new password, and answers alike for an address with no account", async () => {
    const browser = formSession(server.url);
    const page = await browser.get("/forgot-password");
    expect(page.html).toContain("Email me a link");
    const known = await browser.submit("/forgot-password", { email: "Mira@Example.com" });
    const unknown = await browser.submit("/forgot-password", { email: "nobody@example.com" });
    const answer = (html: string) => /<p[^>]*role="status"[^>]*>(.*?)<\/p>/s.exec(html)?.[1];
    expect(known.status).toBe(200);
    expect(answer(known.html)).toBeTruthy();
    expect(answer(unknown.html)).toBe(answer(known.html));

    const got = await until("the reset mail", () =>
      mailsTo("mira@example.com").find((r) => /new password/i.test(r.mail.subject ?? "")),
    );
    const link = linkIn(got.mail.text ?? "", "/account/password/")!;
    const set = await browser.submit(new URL(link).pathname, {
      password: "mira's new password",
      confirm: "mira's new password",
    });
    expect(set.status).toBe(303);
    // Signed in with the new password; the link works once.
    const again = formSession(server.url);
    const signedIn = await again.submit("/sign-in", { email: "mira@example.com", password: "mira's new password" });
    expect(signedIn.status).toBe(303);
    expect((await formSession(server.url).get(new URL(link).pathname)).status).toBe(404);
    expect(mailsTo("nobody@example.com")).toHaveLength(0);
  });

  it("limits how often a link is asked for one address: the fourth in an hour is refused", async () => {
    const browser = formSession(server.url);
    for (let i = 0; i < 3; i++)
      expect((await browser.submit("/forgot-password", { email: "rate@example.com" })).status).toBe(200);
    const fourth = await browser.submit("/forgot-password", { email: "rate@example.com" });
    expect(fourth.status).toBe(429);
    expect(fourth.html).toMatch(/Too many requests/);
  });

  it("waits out an SMTP server that is down, and delivers once when it is back", async () => {
    await smtp.stop();
    const made = await api("POST", "/v1/invites", { email: "late@example.com", isUrlInvite: false, role: "member" });
    expect(made.status).toBe(200);
    // The first attempt fails against the closed port and is retried.
    await until("a failed attempt", async () => {
      const rows = await storeQuery(
        server.dataDir,
        "SELECT attempts FROM jobs WHERE kind = 'send-mail' AND status = 'queued' AND attempts > 0",
      );
      return rows.length > 0;
    });
    await smtp.start();
    await until("the late invite", () => mailsTo("late@example.com").length === 1, 60_000);
    await until("the mail's job done", async () => {
      const rows = await storeQuery(
        server.dataDir,
        "SELECT status FROM jobs WHERE kind = 'send-mail' AND status IN ('queued', 'running')",
      );
      return rows.length === 0;
    });
    expect(mailsTo("late@example.com")).toHaveLength(1);
  });

  it("keeps a refused recipient's failure on its mail, and sends the next", async () => {
    smtp.refuse.add("gone@example.com");
    await api("POST", "/v1/invites", { email: "gone@example.com", isUrlInvite: false, role: "member" });
    await api("POST", "/v1/invites", { email: "next@example.com", isUrlInvite: false, role: "member" });
    await until("the next invite", () => mailsTo("next@example.com").length === 1);
    const failed = await until("the refused mail failed for good", async () => {
      const rows = await storeQuery(
        server.dataDir,
        "SELECT last_error FROM jobs WHERE kind = 'send-mail' AND status = 'failed'",
      );
      return rows.length ? rows : null;
    });
    expect(String(failed[0].last_error)).toMatch(/refused the mail to gone@example.com/);
  });

  it("emails a note's recap to three attendees, each with the link they can open", async () => {
    const me = (await api("GET", "/v1/me")).body;
    await admin(
      server.dataDir,
      [
        "users",
        "create",
        "--workspace",
        me.workspace.id,
        "--email",
        "bo@acme.example",
        "--name",
        "Bo",
        "--password-stdin",
      ],
      "bo's long password",
    );
    const person = (name: string, email: string) => ({ name, email });
    const made = await api("POST", "/v1/notes", {
      title: "Budget review",
      visibility: "workspace",
      summary: "We agreed the budget.\n\n- [ ] Ana sends the numbers by Friday",
      enhancedNote: "## Action items\n\n- [ ] Ana sends the numbers by Friday\n- [ ] Bo books the room",
      participants: [
        person("Bo", "bo@acme.example"),
        person("Carol", "carol@partner.example"),
        person("Dan", "DAN@partner.example"),
        person(me.user.name, me.user.email),
      ],
    });
    expect(made.status).toBe(200);
    const id = made.body.note.id as string;

    const preview = await api("GET", `/v1/notes/${id}/recap`);
    expect(preview.status).toBe(200);
    expect(preview.body.recap.configured).toBe(true);
    expect(preview.body.recap.subject).toBe("Recap: Budget review");
    // The sender is not among the recipients; a member who may see the note gets its link, others the text.
    expect(preview.body.recap.recipients).toEqual([
      { email: "bo@acme.example", name: "Bo", link: "note", from: "note" },
      { email: "carol@partner.example", name: "Carol", link: null, from: "note" },
      { email: "dan@partner.example", name: "Dan", link: null, from: "note" },
    ]);
    // No calendar event: the recipients are the people added to the note.
    expect(preview.body.recap.meeting).toBeNull();

    const sent = await api("POST", `/v1/notes/${id}/recap`, {});
    expect(sent.status).toBe(200);
    expect(sent.body.recipients).toHaveLength(3);
    const bo = await until("Bo's recap", () => mailsTo("bo@acme.example")[0]);
    const carol = await until("Carol's recap", () => mailsTo("carol@partner.example")[0]);
    const dan = await until("Dan's recap", () => mailsTo("dan@partner.example")[0]);
    for (const got of [bo, carol, dan]) {
      expect(got.mail.subject).toBe("Recap: Budget review");
      expect(got.mail.text).toContain("We agreed the budget.");
      expect(got.mail.text).toContain("Bo books the room");
      // Once, though both the summary and the enhanced note list it.
      expect(got.mail.text!.match(/Ana sends the numbers/g)).toHaveLength(1);
      expect(got.mail.html).toContain("<li");
    }
    expect(bo.mail.text).toContain(`${server.url}/notes/${id}`);
    for (const outside of [carol, dan]) expect(outside.mail.text).not.toMatch(/https?:\/\//);
    // A second send at once is refused: a double click sends one recap.
    expect((await api("POST", `/v1/notes/${id}/recap`, {})).status).toBe(429);
    expect(mailsTo("carol@partner.example")).toHaveLength(1);

    // While the note is public, everyone's mail carries its share link.
    expect((await api("PATCH", `/v1/notes/${id}`, { visibility: "shared" })).status).toBe(200);
    const shared = await api("GET", `/v1/notes/${id}/recap`);
    expect(shared.body.recap.recipients.map((r: { link: string }) => r.link)).toEqual(["share", "share", "share"]);
    expect(shared.body.recap.text).toMatch(/\/s\/[A-Za-z0-9_-]{22}/);

    // Only participants, and only the person who made the note.
    const stranger = await api("POST", `/v1/notes/${id}/recap`, { recipients: ["eve@evil.example"] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toContain("eve@evil.example is not a participant");
  });

  it("mails a person whose note is ready, when they asked, with a one-click unsubscribe", async () => {
    const me = (await api("GET", "/v1/me")).body.user.email as string;
    const off = await api("GET", "/v1/me/notifications");
    expect(off.body).toEqual({ notifications: { noteReady: false }, mailConfigured: true });
    expect((await api("PATCH", "/v1/me/notifications", { noteReady: true, weekly: true })).status).toBe(400);
    expect((await api("PATCH", "/v1/me/notifications", { noteReady: true })).body.notifications.noteReady).toBe(true);

    const transcript = (word: string) => ({
      title: `Stand-up about ${word}`,
      transcripts: [
        { speaker: "A", text: `We shipped the ${word} release today.`, startTimestamp: "00:00", endTimestamp: "00:05" },
        { speaker: "B", text: `Next we test the ${word} importer.`, startTimestamp: "00:05", endTimestamp: "00:10" },
      ],
    });
    const completed = async (id: string) =>
      until(`note ${id} completed`, async () => (await api("GET", `/v1/notes/${id}`)).body.note.status === "completed");
    const first = (await api("POST", "/v1/notes", transcript("calendar"))).body.note.id as string;
    await completed(first);
    const got = await until("the ready mail", () =>
      smtp.received.find((r) => r.envelope.to.includes(me) && r.mail.subject === "Ready: Stand-up about calendar"),
    );
    expect(got.mail.text).toContain(`${server.url}/notes/${first}`);
    // Read off the raw message (unfolded): the parser turns the header into an object.
    const headers = got.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>/im.exec(headers)![1];
    expect(unsubscribe.startsWith(`${server.url}/unsubscribe/`)).toBe(true);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);

    // A link not made by the server changes nothing.
    const forged = await fetch(`${unsubscribe.slice(0, -3)}abc`, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
    });
    expect(forged.status).toBe(400);
    expect((await api("GET", "/v1/me/notifications")).body.notifications.noteReady).toBe(true);
    // The mail client's one-click POST, signed out.
    const clicked = await fetch(unsubscribe, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(clicked.status).toBe(200);
    expect((await api("GET", "/v1/me/notifications")).body.notifications.noteReady).toBe(false);

    // The next note is queued no mail: it would have been queued with its completion.
    const second = (await api("POST", "/v1/notes", transcript("billing"))).body.note.id as string;
    await completed(second);
    const queued = await storeQuery(
      server.dataDir,
      `SELECT id FROM jobs WHERE idempotency_key = 'mail:ready:${second}'`,
    );
    expect(queued).toEqual([]);
    expect(
      (await storeQuery(server.dataDir, `SELECT id FROM jobs WHERE idempotency_key = 'mail:ready:${first}'`)).length,
    ).toBe(1);
  });

  it("never lets a line break in a name reach a mail header", async () => {
    expect((await api("PATCH", "/v1/workspace", { name: "Acme\r\nBcc: spy@evil.example" })).status).toBeLessThan(500);
    await api("POST", "/v1/invites", { email: "ines@example.com", isUrlInvite: false, role: "member" });
    const got = await until("the invite", () => mailsTo("ines@example.com")[0]);
    expect(got.envelope.to).toEqual(["ines@example.com"]);
    expect(got.mail.headers.has("bcc")).toBe(false);
    expect(got.raw).not.toMatch(/^Bcc:/im);
  });
});

describe("without SMTP", () => {
  it("creates the invite all the same, and says to ask an admin for a forgotten password", async () => {
    const plain = await startServer();
    try {
      const made = await client(plain.url, plain.key)("POST", "/v1/invites", {
        email: "solo@example.com",
        isUrlInvite: false,
        role: "member",
      });
      expect(made.status).toBe(200);
      const page = await formSession(plain.url).get("/forgot-password");
      expect(page.html).toContain("This server does not send email. Ask an admin");
      expect(page.html).not.toContain("Email me a link");
    } finally {
      await plain.stop();
    }
  });
});
