// notula notes recap and notula notifications, the built binary against a real server
// and a real SMTP server: the preview names each recipient and the link they get;
// --send mails them, --to narrows them, and a participant that is not one is refused
// by name; the note-ready mail is turned on and off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startServer, type TestServer, cliEnv } from "../helpers/server.js";
import { client } from "../helpers/http.js";
import { startSmtp, type SmtpSink } from "../helpers/smtp.js";
import { until } from "../helpers/until.js";

let server: TestServer;
let smtp: SmtpSink;
let env: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    args: ["--no-rate-limit"],
    env: { NOTULA_SMTP_URL: smtp.url, NOTULA_MAIL_FROM: "notes@acme.example" },
  });
  env = cliEnv(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const cli = (args: string[]) => run(args, { env });

describe("notula notes recap", () => {
  it("shows the recap and its recipients, then sends it to the ones named", async () => {
    const made = await client(server.url, server.key)("POST", "/v1/notes", {
      title: "Vendor call",
      summary: "The vendor lowers the price.\n\n- [ ] Ana signs the contract",
      participants: [
        { name: "Ana", email: "ana@vendor.example" },
        { name: "Ben", email: "ben@vendor.example" },
      ],
    });
    const id = made.body.note.id as string;

    const shown = await cli(["notes", "recap", id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Subject: Recap: Vendor call");
    expect(shown.stdout).toContain("Ana signs the contract");
    expect(shown.stdout).toMatch(/ana@vendor\.example\s+Ana\s+text only/);
    expect(shown.stdout).toContain("Not sent: run again with --send.");
    expect(smtp.received).toHaveLength(0);

    const json = await cli(["notes", "recap", id, "--json"]);
    expect(JSON.parse(json.stdout).recipients.map((r: { email: string }) => r.email)).toEqual([
      "ana@vendor.example",
      "ben@vendor.example",
    ]);

    const wrong = await cli(["notes", "recap", id, "--send", "--to", "eve@evil.example"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("eve@evil.example is not a participant");

    const sent = await cli(["notes", "recap", id, "--send", "--to", "ben@vendor.example"]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain("Queued to 1 person.");
    await until("Ben's recap", () => smtp.received.some((r) => r.envelope.to.includes("ben@vendor.example")));
    expect(smtp.received.some((r) => r.envelope.to.includes("ana@vendor.example"))).toBe(false);
  });

  it("turns the note-ready mail on and off, and refuses a value it does not know", async () => {
    const shown = await cli(["notifications"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe("note ready  off\n");
    const on = await cli(["notifications", "--note-ready", "on", "--json"]);
    expect(JSON.parse(on.stdout)).toEqual({ notifications: { noteReady: true }, mailConfigured: true });
    const bad = await cli(["notifications", "--note-ready", "yes"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--note-ready takes on or off, not "yes"');
    expect((await cli(["notifications", "--note-ready", "off"])).stdout).toBe("note ready  off\n");
  });
});
