// notula mail, the built binary against a real server with no SMTP of its own and a
// real SMTP server that asks for a password: set (the password from standard input,
// never an argument), show, test (exit 1 with the server's answer when it fails) and
// remove.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startServer, type TestServer, cliEnv } from "../helpers/server.js";
import { startSmtp, type SmtpSink } from "../helpers/smtp.js";
import { until } from "../helpers/until.js";

const AUTH = { user: "notes@acme.example", pass: "relay password" };
let server: TestServer;
let smtp: SmtpSink;
let env: Record<string, string>;
let port: string;

beforeAll(async () => {
  smtp = await startSmtp({ auth: AUTH });
  port = new URL(smtp.url).port;
  server = await startServer({ args: ["--no-rate-limit", "--allow-private-smtp"] });
  env = cliEnv(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const cli = (args: string[], input?: string) => run(args, { env, input });
const set = (password: string) =>
  cli(
    [
      "mail",
      "set",
      "--host",
      "127.0.0.1",
      "--port",
      port,
      "--username",
      AUTH.user,
      "--password-stdin",
      "--from",
      "Acme notes <notes@acme.example>",
    ],
    `${password}\n`,
  );

describe("notula mail", () => {
  it("sets the workspace's server with the password from standard input, shows it, and tests it", async () => {
    const none = await cli(["mail", "show"]);
    expect(none.stdout).toContain("source    none: email is not set up");

    const saved = await set(AUTH.pass);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain(`server    127.0.0.1:${port} (starttls)`);
    expect(saved.stdout).toContain(`user      ${AUTH.user} (password set)`);
    expect(saved.stdout).not.toContain(AUTH.pass);

    const json = JSON.parse((await cli(["mail", "show", "--json"])).stdout);
    expect(json).toMatchObject({ source: "workspace", from: "Acme notes <notes@acme.example>" });

    const tested = await cli(["mail", "test"]);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toContain("A test mail went to admin@notula.local");
    const got = await until("the test mail", () => smtp.received[0]);
    expect(got.envelope.to).toEqual(["admin@notula.local"]);
  });

  it("fails the test with what the server said, and removes the server", async () => {
    expect((await set("not the password")).code).toBe(0);
    const tested = await cli(["mail", "test"]);
    expect(tested.code).toBe(1);
    expect(tested.stderr).toMatch(/could not be sent: .*(Invalid login|535)/);

    const removed = await cli(["mail", "remove", "--yes"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("source    none");
  });

  it("refuses what the command line gets wrong before anything is sent", async () => {
    const bad = await cli(["mail", "set", "--host", "127.0.0.1", "--security", "ssl"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--security takes tls or starttls");
    const noUser = await cli(["mail", "set", "--host", "127.0.0.1", "--password-stdin"], "x\n");
    expect(noUser.code).toBe(2);
  });
});
