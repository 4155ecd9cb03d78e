// A workspace's own SMTP server, set by its admins on a server that has none: a real
// SMTP server that asks for a password takes the test mail, the emailed invite and a
// password reset; the password is never returned nor stored in clear, and is not kept
// for a different host; a wrong password is said by the test; a private address is
// refused unless the server allows it; removing it goes back to no mail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, storeQuery, type TestServer } from "../helpers/server.js";
import { startApp, appClient, type TestApp } from "../helpers/app.js";
import { client, type Client } from "../helpers/http.js";
import { startSmtp, type SmtpSink } from "../helpers/smtp.js";
import { formSession } from "../helpers/form-session.js";
import { until } from "../helpers/until.js";

const AUTH = { user: "notes@acme.example", pass: "smtp pass: ümlaut & @ / ?" };
let server: TestServer;
let smtp: SmtpSink;
let api: Client;
let port: number;

const mailsTo = (address: string) => smtp.received.filter((r) => r.envelope.to.includes(address));
const smtpBody = (extra: Record<string, unknown> = {}) => ({
  smtp: { host: "127.0.0.1", port, security: "starttls", username: AUTH.user, password: AUTH.pass, ...extra },
});

beforeAll(async () => {
  smtp = await startSmtp({ auth: AUTH });
  port = Number(new URL(smtp.url).port);
  // No NOTULA_SMTP_URL: the workspace's own server is the only way out.
  server = await startServer({
    args: ["--no-rate-limit", "--allow-private-smtp"],
    env: { NOTULA_MAIL_FROM: "server <server@notula.example>", NOTULA_MAIL_RETRY_BASE_MS: "300" },
  });
  api = client(server.url, server.key);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("a workspace's own SMTP server", () => {
  it("starts with none: nothing is mailed, and the settings say so", async () => {
    const got = await api("GET", "/v1/mail-config");
    expect(got.status).toBe(200);
    expect(got.body.mail).toMatchObject({ source: "none", smtp: null, from: null });
    expect((await api("GET", "/v1/me/notifications")).body.mailConfigured).toBe(false);
    expect((await api("POST", "/v1/mail-config/test")).body).toMatchObject({ delivered: false });
  });

  it("is set with a password that is never returned nor stored in clear, and takes a test mail", async () => {
    const set = await api("PATCH", "/v1/mail-config", { ...smtpBody(), from: "Acme notes <notes@acme.example>" });
    expect(set.status).toBe(200);
    expect(set.body.mail).toMatchObject({
      source: "workspace",
      smtp: { host: "127.0.0.1", port, security: "starttls", username: AUTH.user, hasPassword: true },
      from: "Acme notes <notes@acme.example>",
      effectiveFrom: "Acme notes <notes@acme.example>",
    });
    expect(JSON.stringify(set.body)).not.toContain("ümlaut");
    const [row] = await storeQuery(server.dataDir, "SELECT smtp_url_enc FROM mail_settings");
    expect(row.smtp_url_enc).not.toContain("pass");
    expect(row.smtp_url_enc).not.toContain("127.0.0.1");

    const test = await api("POST", "/v1/mail-config/test");
    expect(test.body).toEqual({ delivered: true, to: "admin@notula.local", error: null });
    const got = await until("the test mail", () => mailsTo("admin@notula.local")[0]);
    expect(got.mail.from?.value[0]).toMatchObject({ name: "Acme notes", address: "notes@acme.example" });
    expect(got.mail.subject).toMatch(/mail from .* works/);
    expect(got.mail.text).toContain(`${server.url}/settings/email`);
    expect((await api("GET", "/v1/me/notifications")).body.mailConfigured).toBe(true);
  });

  it("sends the emailed invite and a password reset through it", async () => {
    expect((await api("POST", "/v1/invites", { email: "lena@example.com", isUrlInvite: false })).status).toBe(200);
    const invite = await until("the invite mail", () => mailsTo("lena@example.com")[0]);
    expect(invite.mail.from?.value[0].address).toBe("notes@acme.example");
    expect(invite.mail.text).toContain(`${server.url}/invite/`);

    const browser = formSession(server.url);
    expect((await browser.get("/forgot-password")).html).toContain("Email me a link");
    expect((await browser.submit("/forgot-password", { email: "admin@notula.local" })).status).toBe(200);
    const reset = await until("the reset mail", () =>
      mailsTo("admin@notula.local").find((r) => /new password/i.test(r.mail.subject ?? "")),
    );
    expect(reset.mail.text).toContain(`${server.url}/account/password/`);
  });

  it("keeps the password while host and user stay, and drops it for another host", async () => {
    const keep = await api("PATCH", "/v1/mail-config", {
      smtp: { host: "127.0.0.1", port, security: "starttls", username: AUTH.user },
    });
    expect(keep.body.mail.smtp.hasPassword).toBe(true);
    expect((await api("POST", "/v1/mail-config/test")).body.delivered).toBe(true);

    // The same server under another name: the old password must not follow it there.
    const moved = await api("PATCH", "/v1/mail-config", {
      smtp: { host: "localhost", port, security: "starttls", username: AUTH.user },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.mail.smtp).toMatchObject({ host: "localhost", hasPassword: false });
    // A from left out stays as it was.
    expect(moved.body.mail.from).toBe("Acme notes <notes@acme.example>");
  });

  it("says what the SMTP server answered to a wrong password", async () => {
    expect((await api("PATCH", "/v1/mail-config", smtpBody({ password: "wrong" }))).status).toBe(200);
    const test = await api("POST", "/v1/mail-config/test");
    expect(test.body.delivered).toBe(false);
    expect(test.body.error).toMatch(/Invalid login|535/);
    expect((await api("PATCH", "/v1/mail-config", smtpBody())).status).toBe(200);
  });

  it("refuses bad input by name", async () => {
    for (const [body, field] of [
      [{ smtp: { host: "mail example", port: 25, security: "starttls" } }, "smtp.host"],
      [{ smtp: { host: "mail.example", port: 0, security: "starttls" } }, "smtp.port"],
      [{ smtp: { host: "mail.example", port: 25, security: "ssl" } }, "smtp.security"],
      [{ from: "Acme\r\nBcc: everyone@example.com <a@b.c>" }, "from"],
      [{ smtp: { host: "mail.example", port: 25, security: "starttls", password: "x" } }, "smtp.password"],
    ] as const) {
      const res = await api("PATCH", "/v1/mail-config", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
  });

  it("goes back to none when removed", async () => {
    const removed = await api("PATCH", "/v1/mail-config", { smtp: null });
    expect(removed.body.mail).toMatchObject({ source: "none", smtp: null });
    expect(await storeQuery(server.dataDir, "SELECT workspace_id FROM mail_settings")).toHaveLength(0);
    const before = smtp.received.length;
    expect((await api("POST", "/v1/invites", { email: "olga@example.com", isUrlInvite: false })).status).toBe(200);
    expect(
      (await api("GET", "/v1/invites")).body.items.some((i: { email: string }) => i.email === "olga@example.com"),
    ).toBe(true);
    expect(smtp.received.length).toBe(before);
  });
});

describe("a workspace's SMTP server on a server that does not allow private ones", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ args: ["--no-rate-limit"] });
  });
  afterAll(() => app?.stop());

  it("refuses loopback and private addresses, by name or number", async () => {
    const call = appClient(app, app.key);
    for (const host of ["127.0.0.1", "localhost", "10.1.2.3", "[::1]", "169.254.169.254"]) {
      const res = await call("PATCH", "/v1/mail-config", { smtp: { host, port: 25, security: "starttls" } });
      expect(res.status, host).toBe(400);
      expect(res.body.error.message).toMatch(/^smtp\.host: /);
    }
    expect((await call("GET", "/v1/mail-config")).body.mail.source).toBe("none");
  });
});
